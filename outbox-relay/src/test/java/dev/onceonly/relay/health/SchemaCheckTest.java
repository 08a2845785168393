package dev.onceonly.relay.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.model.OutboxSchema;
import dev.onceonly.testsupport.PostgresResource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The start-up check against a database where nobody ran the outbox migrations. */
class SchemaCheckTest {

  private static final PostgresResource POSTGRES = new PostgresResource();
  private static Map<String, String> database;

  @BeforeAll
  static void startEmptyDatabase() throws SQLException {
    POSTGRES.init(Map.of("database", "onceonly_relay_empty_test"));
    database = POSTGRES.start();
    try (Connection c = connect();
        Statement statement = c.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS outbox CASCADE");
    }
  }

  @AfterAll
  static void stop() {
    POSTGRES.stop();
  }

  @Test
  void startupFailsWithAClearMessageWhenTheOutboxSchemaIsMissing() throws SQLException {
    try (Connection c = connect()) {
      assertThatThrownBy(() -> SchemaCheck.verify(c))
          .isInstanceOf(OutboxSchemaMissingException.class)
          .hasMessageStartingWith("outbox schema missing: run consumer-service migrations first")
          .hasMessageContaining("table outbox.outbox does not exist")
          .hasMessageContaining("table outbox.outbox_attempts does not exist")
          .hasMessageContaining("no successful migration in outbox.flyway_outbox_history");
    }
  }

  @Test
  void reportsMissingColumnsAndAnOldSchemaVersion() throws SQLException {
    try (Connection c = connect();
        Statement statement = c.createStatement()) {
      c.setAutoCommit(false);
      statement.execute("CREATE SCHEMA outbox");
      statement.execute("CREATE TABLE outbox.outbox (id bigint, kind text)");
      statement.execute(
          "CREATE TABLE outbox.flyway_outbox_history (version varchar(50), success boolean)");
      statement.execute("INSERT INTO outbox.flyway_outbox_history VALUES ('1', true)");
      assertThat(SchemaCheck.problems(c))
          .contains("column outbox.payload is missing", "column outbox.lease_owner is missing")
          .contains("table outbox.outbox_attempts does not exist")
          .contains("schema version 1 is older than " + OutboxSchema.REQUIRED_VERSION);
      c.rollback();
    }
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(
        database.get("quarkus.datasource.jdbc.url"),
        database.get("quarkus.datasource.username"),
        database.get("quarkus.datasource.password"));
  }
}
