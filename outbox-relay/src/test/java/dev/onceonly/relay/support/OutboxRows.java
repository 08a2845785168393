package dev.onceonly.relay.support;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/** Plain JDBC access to the outbox for tests, as the writer and an operator would see it. */
public final class OutboxRows {

  /** A row to insert. */
  public record NewRow(String kind, String payload, String key, String orderingKey) {}

  /** A row as stored. */
  public record Row(
      long id,
      String status,
      int attempts,
      String leaseOwner,
      Integer lastHttpStatus,
      String lastError,
      Instant createdAt,
      Instant deliveredAt,
      Instant availableAt) {}

  /** One recorded attempt. */
  public record Attempt(
      int attempt,
      String relayId,
      Instant startedAt,
      Instant finishedAt,
      String outcome,
      Integer httpStatus,
      String error) {}

  private OutboxRows() {}

  /** A fresh key prefix so that a test only ever looks at its own rows and calls. */
  public static String uniquePrefix(String test) {
    return test + "-" + UUID.randomUUID().toString().substring(0, 8) + "-";
  }

  public static NewRow receipt(String key) {
    return new NewRow("send_receipt", "{\"key\":\"" + key + "\"}", key, null);
  }

  public static NewRow receipt(String key, String orderingKey) {
    return new NewRow("send_receipt", "{\"key\":\"" + key + "\"}", key, orderingKey);
  }

  /** Inserts the rows in one statement (one commit, one NOTIFY), returning ids in order. */
  public static List<Long> insert(List<NewRow> rows) {
    String sql =
        """
        INSERT INTO outbox.outbox (kind, payload, idempotency_key, ordering_key)
        SELECT k, p::jsonb, i, o FROM unnest(?::text[], ?::text[], ?::text[], ?::text[])
               WITH ORDINALITY AS r(k, p, i, o, n)
         ORDER BY n
        RETURNING id
        """;
    try (Connection c = connect();
        PreparedStatement statement = c.prepareStatement(sql)) {
      statement.setArray(1, array(c, rows.stream().map(NewRow::kind).toArray()));
      statement.setArray(2, array(c, rows.stream().map(NewRow::payload).toArray()));
      statement.setArray(3, array(c, rows.stream().map(NewRow::key).toArray()));
      statement.setArray(4, array(c, rows.stream().map(NewRow::orderingKey).toArray()));
      List<Long> ids = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      ids.sort(Long::compare);
      return ids;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public static long insert(NewRow row) {
    return insert(List.of(row)).get(0);
  }

  /** Waits until no outbox row matches {@code where} (other tests' rows settle, for example). */
  public static void awaitNone(String where, Duration atMost) {
    Awaitility.await()
        .pollInSameThread()
        .atMost(atMost)
        .until(() -> longs("SELECT count(*) FROM outbox.outbox WHERE " + where).get(0) == 0);
  }

  public static Row row(long id) {
    String sql =
        """
        SELECT id, status, attempts, lease_owner, last_http_status, last_error, created_at,
               delivered_at, available_at
          FROM outbox.outbox WHERE id = ?
        """;
    try (Connection c = connect();
        PreparedStatement statement = c.prepareStatement(sql)) {
      statement.setLong(1, id);
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("no outbox row " + id);
        }
        return new Row(
            rs.getLong(1),
            rs.getString(2),
            rs.getInt(3),
            rs.getString(4),
            (Integer) rs.getObject(5),
            rs.getString(6),
            instant(rs, 7),
            instant(rs, 8),
            instant(rs, 9));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The payload as the relay sends it ({@code payload::text}). */
  public static String payload(long id) {
    return strings("SELECT payload::text FROM outbox.outbox WHERE id = ?", id).get(0);
  }

  public static String status(long id) {
    return row(id).status();
  }

  public static List<Attempt> attempts(long id) {
    String sql =
        """
        SELECT attempt, relay_id, started_at, finished_at, outcome, http_status, error
          FROM outbox.outbox_attempts WHERE outbox_id = ? ORDER BY id
        """;
    try (Connection c = connect();
        PreparedStatement statement = c.prepareStatement(sql)) {
      statement.setLong(1, id);
      List<Attempt> attempts = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          attempts.add(
              new Attempt(
                  rs.getInt(1),
                  rs.getString(2),
                  instant(rs, 3),
                  instant(rs, 4),
                  rs.getString(5),
                  (Integer) rs.getObject(6),
                  rs.getString(7)));
        }
      }
      return attempts;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs one statement with parameters and returns the first column of each row as a long. */
  public static List<Long> longs(String sql, Object... parameters) {
    try (Connection c = connect();
        PreparedStatement statement = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      List<Long> values = new ArrayList<>();
      if (statement.execute()) {
        try (ResultSet rs = statement.getResultSet()) {
          while (rs.next()) {
            values.add(rs.getLong(1));
          }
        }
      }
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs one query with parameters and returns the first column of each row as text. */
  public static List<String> strings(String sql, Object... parameters) {
    try (Connection c = connect();
        PreparedStatement statement = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      List<String> values = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          values.add(rs.getString(1));
        }
      }
      return values;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Inserts a row as a relay named {@code owner} would have left it after leasing it for its first
   * attempt: in flight, its lease ending {@code leaseMillis} from now (negative: expired).
   */
  public static long insertLeased(NewRow row, String owner, long leaseMillis) {
    return longs(
            """
            INSERT INTO outbox.outbox
                   (kind, payload, idempotency_key, status, attempts, lease_owner, lease_until)
            VALUES (?, ?::jsonb, ?, 'in_flight', 1, ?, now() + ? * interval '1 millisecond')
            RETURNING id
            """,
            row.kind(),
            row.payload(),
            row.key(),
            owner,
            leaseMillis)
        .get(0);
  }

  /**
   * Inserts a row directly in {@code status} (e.g. dead, delivered), as if the relay had left it
   * there; {@code available_at} is {@code dueInSeconds} from now (use a large value for a pending
   * row the relay must not take yet).
   */
  public static long insertAs(NewRow row, String status, long dueInSeconds) {
    return longs(
            """
            INSERT INTO outbox.outbox
                   (kind, payload, idempotency_key, ordering_key, status, available_at,
                    delivered_at)
            VALUES (?, ?::jsonb, ?, ?, ?, now() + ? * interval '1 second',
                    CASE WHEN ? = 'delivered' THEN now() END)
            RETURNING id
            """,
            row.kind(),
            row.payload(),
            row.key(),
            row.orderingKey(),
            status,
            dueInSeconds,
            status)
        .get(0);
  }

  public static long insertAs(NewRow row, String status) {
    return insertAs(row, status, 0);
  }

  /** The database's clock ({@code created_at} and friends are written with it). */
  public static Instant databaseNow() {
    try (Connection c = connect();
        PreparedStatement statement = c.prepareStatement("SELECT now()");
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      return instant(rs, 1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Removes a test's rows (and their attempts) whose idempotency key starts with {@code prefix}:
   * rows left pending for later would keep the relay from ever looking idle to other tests.
   */
  public static void deleteKeysStartingWith(String prefix) {
    longs("DELETE FROM outbox.outbox WHERE starts_with(idempotency_key, ?)", prefix);
  }

  /**
   * Records an attempt of row {@code id} as a relay would have, traced with {@code traceParent}.
   */
  public static void insertAttempt(
      long id, int attempt, String outcome, Integer httpStatus, String error, String traceParent) {
    longs(
        """
        INSERT INTO outbox.outbox_attempts
               (outbox_id, attempt, relay_id, started_at, finished_at, outcome, http_status, error,
                trace_parent)
        VALUES (?, ?, 'relay-test', now() - interval '2 seconds', now() - interval '1 second',
                ?, ?, ?, ?)
        """,
        id,
        attempt,
        outcome,
        httpStatus,
        error,
        traceParent);
  }

  /**
   * Records an attempt of row {@code id} at {@code destination} that finished in the middle of the
   * minute {@code minutesAgo} minutes ago.
   */
  public static void insertAttemptAt(
      long id, int attempt, String destination, String outcome, int minutesAgo) {
    longs(
        """
        INSERT INTO outbox.outbox_attempts
               (outbox_id, attempt, relay_id, started_at, finished_at, outcome, destination)
        VALUES (?, ?, 'relay-test', now() - ? * interval '1 second',
                now() - ? * interval '1 second', ?, ?)
        """,
        id,
        attempt,
        minutesAgo * 60 + 31,
        minutesAgo * 60 + 30,
        outcome,
        destination);
  }

  /** Gives row {@code id} the trace context its writer would have stored. */
  public static void traceRow(long id, String traceParent) {
    longs("UPDATE outbox.outbox SET trace_parent = ? WHERE id = ?", traceParent, id);
  }

  /** Gives row {@code id} the message that wrote it. */
  public static void sourceOf(long id, String consumer, String messageKey) {
    longs(
        "UPDATE outbox.outbox SET source_consumer = ?, source_message_key = ? WHERE id = ?",
        consumer,
        messageKey,
        id);
  }

  public static long auditRows() {
    return longs("SELECT count(*) FROM outbox.outbox_audit").get(0);
  }

  /** A connection of the test itself (application name {@code relay-test}), autocommit. */
  public static Connection connect() throws SQLException {
    Config config = ConfigProvider.getConfig();
    Properties properties = new Properties();
    properties.setProperty(
        "user", config.getOptionalValue("quarkus.datasource.username", String.class).orElse(""));
    properties.setProperty(
        "password",
        config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
    properties.setProperty("ApplicationName", "relay-test");
    return DriverManager.getConnection(
        config.getValue("quarkus.datasource.jdbc.url", String.class), properties);
  }

  private static Array array(Connection c, Object[] values) throws SQLException {
    return c.createArrayOf("text", values);
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
