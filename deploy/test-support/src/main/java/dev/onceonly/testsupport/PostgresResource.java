package dev.onceonly.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * PostgreSQL for a Quarkus test: a Testcontainers container where Docker answers, otherwise the
 * machine's own server on 127.0.0.1:5432 (trust auth), in a database of its own that is created if
 * missing. Init arg {@code database} names that database (default {@code onceonly_test}); with
 * {@link Isolation} set, its suffix is appended so that two checkouts can run their tests at once.
 * Init arg {@code fresh=true} drops that local database first, for tests that need an empty one (a
 * container always starts empty).
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

  public static final String LOCAL_HOST = "127.0.0.1";
  public static final int LOCAL_PORT = 5432;
  public static final String LOCAL_USER = "postgres";

  private String database = "onceonly_test";
  private boolean fresh;
  private PostgreSQLContainer container;

  @Override
  public void init(Map<String, String> initArgs) {
    database = Isolation.database(initArgs.getOrDefault("database", database));
    fresh = Boolean.parseBoolean(initArgs.getOrDefault("fresh", "false"));
  }

  @Override
  public Map<String, String> start() {
    if (Docker.available()) {
      container = new PostgreSQLContainer("postgres:15-alpine").withDatabaseName(database);
      container.start();
      return config(container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }
    LocalService.requireListening(
        "PostgreSQL",
        LOCAL_HOST,
        LOCAL_PORT,
        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start");
    if (fresh) {
      dropDatabase(database);
    }
    createDatabaseIfMissing(database);
    return config(
        "jdbc:postgresql://" + LOCAL_HOST + ":" + LOCAL_PORT + "/" + database, LOCAL_USER, "");
  }

  @Override
  public void stop() {
    if (container != null) {
      container.stop();
    }
  }

  private static Map<String, String> config(String url, String user, String password) {
    return Map.of(
        "quarkus.datasource.jdbc.url", url,
        "quarkus.datasource.username", user,
        "quarkus.datasource.password", password);
  }

  /** Drops a database of the machine's own server if it exists, closing its connections. */
  public static void dropDatabase(String database) {
    String admin = "jdbc:postgresql://" + LOCAL_HOST + ":" + LOCAL_PORT + "/postgres";
    try (Connection connection = DriverManager.getConnection(admin, LOCAL_USER, "");
        Statement drop = connection.createStatement()) {
      drop.execute("DROP DATABASE IF EXISTS \"" + database.replace("\"", "") + "\" WITH (FORCE)");
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot drop test database '" + database + "' on PostgreSQL at " + admin, e);
    }
  }

  /** Creates a database on the machine's own server unless it exists. */
  public static void createDatabaseIfMissing(String database) {
    String admin = "jdbc:postgresql://" + LOCAL_HOST + ":" + LOCAL_PORT + "/postgres";
    try (Connection connection = DriverManager.getConnection(admin, LOCAL_USER, "");
        PreparedStatement exists =
            connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      exists.setString(1, database);
      try (ResultSet rs = exists.executeQuery()) {
        if (rs.next()) {
          return;
        }
      }
      try (Statement create = connection.createStatement()) {
        create.execute("CREATE DATABASE \"" + database.replace("\"", "") + "\"");
      } catch (SQLException e) {
        if (!"42P04".equals(e.getSQLState())) { // created meanwhile by another test JVM
          throw e;
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot create test database '" + database + "' on PostgreSQL at " + admin, e);
    }
  }
}
