package dev.onceonly.relay.health;

import dev.onceonly.model.OutboxSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks that the outbox schema this relay needs is there: both tables with the columns it uses,
 * and a Flyway history at {@link OutboxSchema#REQUIRED_VERSION} or later. The relay never creates
 * it: consumer-service (or a migration job) owns the DDL.
 */
public final class SchemaCheck {

  static final Map<String, List<String>> REQUIRED_COLUMNS =
      Map.of(
          "outbox",
          List.of(
              "id",
              "kind",
              "payload",
              "idempotency_key",
              "ordering_key",
              "status",
              "attempts",
              "available_at",
              "lease_owner",
              "lease_until",
              "created_at",
              "delivered_at",
              "last_error",
              "last_http_status",
              "attempts_at_retry",
              "cancelled_at",
              "source_consumer",
              "source_message_key",
              "trace_parent"),
          "outbox_attempts",
          List.of(
              "outbox_id",
              "attempt",
              "relay_id",
              "started_at",
              "finished_at",
              "outcome",
              "http_status",
              "error",
              "trace_parent",
              "destination"),
          "outbox_audit",
          List.of(
              "id",
              "actor",
              "action",
              "target_id",
              "filter",
              "affected_count",
              "dry_run",
              "at",
              "scheduled_until"),
          "outbox_keys",
          List.of("idempotency_key", "created_at"));

  static final String SQL_COLUMNS =
      """
      SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = ?
         AND table_name IN ('outbox', 'outbox_attempts', 'outbox_audit', 'outbox_keys')
      """;

  static final String SQL_HISTORY_EXISTS = "SELECT to_regclass(?) IS NOT NULL";

  static final String SQL_HISTORY_VERSIONS =
      "SELECT version FROM %s WHERE success AND version IS NOT NULL";

  private SchemaCheck() {}

  /** Fails with a message an operator can act on unless {@link #problems} is empty. */
  public static void verify(Connection connection) throws SQLException {
    List<String> problems = problems(connection);
    if (!problems.isEmpty()) {
      throw new OutboxSchemaMissingException(message(problems));
    }
  }

  static String message(List<String> problems) {
    return "outbox schema missing: run consumer-service migrations first (Flyway schema '"
        + OutboxSchema.SCHEMA
        + "', history table '"
        + historyTable()
        + "', migrations classpath:"
        + OutboxSchema.MIGRATIONS
        + ", version >= "
        + OutboxSchema.REQUIRED_VERSION
        + "); found: "
        + String.join("; ", problems);
  }

  /** What is missing or too old; empty when the relay can run. */
  public static List<String> problems(Connection connection) throws SQLException {
    List<String> problems = new ArrayList<>();
    Map<String, Set<String>> present = columns(connection);
    REQUIRED_COLUMNS.forEach(
        (table, columns) -> {
          Set<String> found = present.getOrDefault(table, Set.of());
          if (found.isEmpty()) {
            problems.add("table " + OutboxSchema.SCHEMA + "." + table + " does not exist");
          } else {
            columns.stream()
                .filter(c -> !found.contains(c))
                .forEach(c -> problems.add("column " + table + "." + c + " is missing"));
          }
        });
    String newest = newestMigration(connection);
    if (newest == null) {
      problems.add("no successful migration in " + historyTable());
    } else if (!FlywayVersions.atLeast(newest, OutboxSchema.REQUIRED_VERSION)) {
      problems.add("schema version " + newest + " is older than " + OutboxSchema.REQUIRED_VERSION);
    }
    return problems;
  }

  private static Map<String, Set<String>> columns(Connection connection) throws SQLException {
    Map<String, Set<String>> present = new HashMap<>();
    try (PreparedStatement statement = connection.prepareStatement(SQL_COLUMNS)) {
      statement.setString(1, OutboxSchema.SCHEMA);
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          present.computeIfAbsent(rs.getString(1), t -> new HashSet<>()).add(rs.getString(2));
        }
      }
    }
    return present;
  }

  private static String newestMigration(Connection connection) throws SQLException {
    try (PreparedStatement exists = connection.prepareStatement(SQL_HISTORY_EXISTS)) {
      exists.setString(1, historyTable());
      try (ResultSet rs = exists.executeQuery()) {
        if (!rs.next() || !rs.getBoolean(1)) {
          return null;
        }
      }
    }
    String newest = null;
    try (PreparedStatement versions =
            connection.prepareStatement(SQL_HISTORY_VERSIONS.formatted(historyTable()));
        ResultSet rs = versions.executeQuery()) {
      while (rs.next()) {
        String version = rs.getString(1);
        if (newest == null || FlywayVersions.atLeast(version, newest)) {
          newest = version;
        }
      }
    }
    return newest;
  }

  private static String historyTable() {
    return OutboxSchema.SCHEMA + "." + OutboxSchema.HISTORY_TABLE;
  }
}
