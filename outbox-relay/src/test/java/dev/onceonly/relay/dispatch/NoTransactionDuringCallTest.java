package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/** ARCHITECTURE.md I4: no database transaction is open while a provider is called. */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class NoTransactionDuringCallTest {

  /**
   * Connections of the relay (pool and LISTEN) idle inside a transaction begun over 100 ms ago: a
   * transaction around the call would show here, the relay's own short ones cannot.
   */
  private static final String SQL_OPEN_TRANSACTIONS =
      """
      SELECT application_name || ' ' || state || ' since ' || xact_start
        FROM pg_stat_activity
       WHERE datname = current_database()
         AND application_name LIKE 'onceonly-outbox-relay%'
         AND state LIKE 'idle in transaction%'
         AND xact_start < now() - interval '100 milliseconds'
      """;

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void providerIsCalledWithNoDatabaseTransactionOpen() throws SQLException {
    String key = OutboxRows.uniquePrefix("no-tx") + "receipt";
    List<List<String>> seenDuringCall = new CopyOnWriteArrayList<>();
    // While the provider holds the request, look at what the relay's connections are doing.
    stub.script(
        key,
        Step.normal()
            .held(Duration.ofMillis(250))
            .whileHeld(() -> seenDuringCall.add(OutboxRows.strings(SQL_OPEN_TRANSACTIONS))));
    long id = OutboxRows.insert(OutboxRows.receipt(key));

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(id).equals("delivered"));

    assertThat(seenDuringCall).hasSize(1).allSatisfy(open -> assertThat(open).isEmpty());
    assertThat(probeSeesATransactionLeftOpenByTheRelaysName())
        .as("the probe itself detects an open transaction")
        .isNotEmpty();
  }

  /** Control: a connection named like the relay's, left idle inside a transaction. */
  private static List<String> probeSeesATransactionLeftOpenByTheRelaysName() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty(
        "user",
        ConfigProvider.getConfig()
            .getOptionalValue("quarkus.datasource.username", String.class)
            .orElse(""));
    properties.setProperty(
        "password",
        ConfigProvider.getConfig()
            .getOptionalValue("quarkus.datasource.password", String.class)
            .orElse(""));
    properties.setProperty("ApplicationName", "onceonly-outbox-relay-control");
    String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
    try (Connection control = DriverManager.getConnection(url, properties);
        Statement statement = control.createStatement()) {
      control.setAutoCommit(false);
      statement.execute("SELECT 1 FROM outbox.outbox LIMIT 1");
      List<String> open =
          await()
              .pollInSameThread()
              .atMost(Duration.ofSeconds(5))
              .until(() -> OutboxRows.strings(SQL_OPEN_TRANSACTIONS), seen -> !seen.isEmpty());
      control.rollback();
      return open;
    }
  }
}
