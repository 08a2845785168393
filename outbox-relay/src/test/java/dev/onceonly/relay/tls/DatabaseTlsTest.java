package dev.onceonly.relay.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.tls.TestCa;
import dev.onceonly.testsupport.tls.TlsProxy;
import dev.onceonly.tls.PostgresTrust;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sslmode=verify-full} as both services connect (the driver with {@link PostgresTrust} as
 * its {@code sslfactory}, from application.properties), against a TLS-only PostgreSQL listener
 * whose certificate a CA made here signed for {@code localhost}: the connection works trusting that
 * CA, and a server of another CA, or a certificate for another host, is refused with the server,
 * the CA file and "not trusted" in the message the start fails with.
 */
class DatabaseTlsTest {

  private static final TestCa CA = TestCa.create("OnceOnly test database CA");
  private static final TestCa OTHER_CA = TestCa.create("Someone else's CA");
  private static final PostgresResource DATABASE = new PostgresResource();
  private static Map<String, String> plain;
  private static TlsProxy good;
  private static TlsProxy wrongHost;
  private static String database;

  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    DATABASE.init(Map.of("database", "onceonly_relay_test"));
    plain = DATABASE.start();
    URI url = URI.create(plain.get("quarkus.datasource.jdbc.url").substring("jdbc:".length()));
    database = url.getPath();
    good =
        TlsProxy.start(
            CA.issue("localhost", "127.0.0.1"),
            TlsProxy.Protocol.POSTGRESQL,
            url.getHost(),
            url.getPort());
    wrongHost =
        TlsProxy.start(
            CA.issue("db.example.com"), TlsProxy.Protocol.POSTGRESQL, url.getHost(), url.getPort());
  }

  @AfterAll
  static void stop() {
    good.close();
    wrongHost.close();
    DATABASE.stop();
  }

  @Test
  void theRelayUsesTheWordingFactory() throws Exception {
    Properties application = new Properties();
    try (var in = DatabaseTlsTest.class.getResourceAsStream("/application.properties")) {
      application.load(in);
    }
    assertThat(
            application.getProperty(
                "quarkus.datasource.jdbc.additional-jdbc-properties.sslfactory"))
        .isEqualTo(PostgresTrust.class.getName());
  }

  @Test
  void verifyFullConnectsTrustingTheCaFile() throws Exception {
    int before = good.handshakes();
    try (Connection connection = connect(good, CA.writePem(dir, "ca.crt"));
        ResultSet ssl = connection.createStatement().executeQuery("SELECT 1")) {
      assertThat(ssl.next()).isTrue();
    }
    assertThat(good.handshakes()).isEqualTo(before + 1);
  }

  @Test
  void aServerOfAnotherCaIsNotTrustedNamingTheCaFile() {
    Path other = OTHER_CA.writePem(dir, "other-ca.crt");
    assertThatThrownBy(() -> connect(good, other))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(
            "PostgreSQL at localhost presented a TLS certificate that is not trusted")
        .hasMessageContaining("the CA certificates in " + other);
  }

  @Test
  void aCertificateForAnotherHostIsNotTrusted() {
    assertThatThrownBy(() -> connect(wrongHost, CA.writePem(dir, "ca.crt")))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("not trusted")
        .hasMessageContaining("does not name host localhost");
  }

  @Test
  void verifyFullWithoutACaFileSaysSo() {
    assertThatThrownBy(() -> connect(good, null))
        .isInstanceOf(SQLException.class)
        .hasStackTraceContaining("sslmode=verify-full needs sslrootcert=");
  }

  private static Connection connect(TlsProxy proxy, Path ca) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", plain.get("quarkus.datasource.username"));
    properties.setProperty("password", plain.get("quarkus.datasource.password"));
    properties.setProperty("sslmode", "verify-full");
    properties.setProperty("sslfactory", PostgresTrust.class.getName());
    if (ca != null) {
      properties.setProperty("sslrootcert", ca.toString());
    }
    properties.setProperty("connectTimeout", "10");
    return DriverManager.getConnection(
        "jdbc:postgresql://localhost:" + proxy.port() + database, properties);
  }
}
