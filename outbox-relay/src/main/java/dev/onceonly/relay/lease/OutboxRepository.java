package dev.onceonly.relay.lease;

import dev.onceonly.relay.retry.Decision.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * All SQL the relay's delivery loop runs against {@code outbox.outbox} and {@code
 * outbox.outbox_attempts}, each call in a short transaction of its own and never around a provider
 * call (DESIGN §5). Operators' reads and changes are in {@code operations.OutboxQueryRepository}
 * and {@code operations.OutboxChangeRepository}, retention's deletes in {@code
 * retention.RetentionRepository}.
 */
@ApplicationScoped
public class OutboxRepository {

  /** Due rows of the given kinds, oldest first; {@code %s} takes the ordering predicate. */
  static final String SQL_DUE =
      """
      SELECT o.id FROM outbox.outbox o
       WHERE o.kind = ANY (?)
         AND ((o.status = 'pending' AND o.available_at <= now())
           OR (o.status = 'in_flight' AND o.lease_until < now()))
         %s
       ORDER BY o.id
       LIMIT ?
       FOR UPDATE SKIP LOCKED
      """;

  /** Per-key ordering: only the oldest non-final row of an ordering key may go (dead parks it). */
  static final String SQL_OLDEST_OF_ITS_KEY =
      """
      AND (o.ordering_key IS NULL OR NOT EXISTS (
             SELECT 1 FROM outbox.outbox older
              WHERE older.ordering_key = o.ordering_key
                AND older.status IN ('pending', 'in_flight', 'dead')
                AND older.id < o.id))
      """;

  static final String SQL_LEASE =
      """
      WITH due AS (%s)
      UPDATE outbox.outbox t
         SET status = 'in_flight', lease_owner = ?,
             lease_until = now() + ? * interval '1 millisecond', attempts = t.attempts + 1
       WHERE t.id IN (SELECT id FROM due)
      RETURNING t.id, t.kind, t.payload::text, t.idempotency_key, t.ordering_key, t.attempts,
                t.attempts - t.attempts_at_retry, t.created_at
      """;

  /** The fence of every completion: only the holder of this attempt's lease writes. */
  static final String FENCE =
      " WHERE id = ? AND lease_owner = ? AND attempts = ? AND status = 'in_flight'";

  static final String SQL_MARK_DELIVERED =
      """
      UPDATE outbox.outbox
         SET status = 'delivered', delivered_at = now(), lease_owner = NULL, lease_until = NULL,
             last_http_status = ?, last_error = NULL
      """
          + FENCE;

  static final String SQL_RESCHEDULE =
      """
      UPDATE outbox.outbox
         SET status = 'pending', available_at = now() + ? * interval '1 millisecond',
             lease_owner = NULL, lease_until = NULL, last_http_status = ?, last_error = ?
      """
          + FENCE;

  static final String SQL_MARK_DEAD =
      """
      UPDATE outbox.outbox
         SET status = 'dead', lease_owner = NULL, lease_until = NULL,
             last_http_status = ?, last_error = ?
      """
          + FENCE;

  /** Shutdown: back to pending at once; {@code attempts} is kept (the call may have landed). */
  static final String SQL_RELEASE =
      """
      UPDATE outbox.outbox
         SET status = 'pending', available_at = now(), lease_owner = NULL, lease_until = NULL,
             last_error = ?
      """
          + FENCE;

  /** Every attempt is recorded, fenced or not, unless retention already removed the row. */
  static final String SQL_RECORD_ATTEMPT =
      """
      INSERT INTO outbox.outbox_attempts
             (outbox_id, attempt, relay_id, started_at, finished_at, outcome, http_status, error)
      SELECT ?::bigint, ?::int, ?, ?::timestamptz, ?::timestamptz, ?, ?::int, ?
       WHERE EXISTS (SELECT 1 FROM outbox.outbox WHERE id = ?)
      """;

  /** Milliseconds until the next row becomes due (negative: already due), null when none. */
  static final String SQL_NEXT_DUE =
      """
      SELECT EXTRACT(EPOCH FROM least(
               (SELECT o.available_at FROM outbox.outbox o
                 WHERE o.status = 'pending' AND o.kind = ANY (?) %s
                 ORDER BY o.available_at LIMIT 1),
               (SELECT o.lease_until FROM outbox.outbox o
                 WHERE o.status = 'in_flight' AND o.kind = ANY (?)
                 ORDER BY o.lease_until LIMIT 1)) - now()) * 1000
      """;

  static final String SQL_BACKLOG =
      """
      SELECT count(*), COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)
        FROM outbox.outbox
       WHERE status IN ('pending', 'in_flight')
      """;

  private static final Map<Outcome, String> COMPLETIONS = new EnumMap<>(Outcome.class);

  static {
    COMPLETIONS.put(Outcome.DELIVERED, SQL_MARK_DELIVERED);
    COMPLETIONS.put(Outcome.RETRY, SQL_RESCHEDULE);
    COMPLETIONS.put(Outcome.DEAD, SQL_MARK_DEAD);
    COMPLETIONS.put(Outcome.RELEASED, SQL_RELEASE);
  }

  /** Rows waiting for delivery (pending or in flight) and the age of the oldest, in seconds. */
  public record Backlog(long rows, double oldestAgeSeconds) {}

  private final Jdbc jdbc;

  public OutboxRepository(DataSource dataSource) {
    this.jdbc = new Jdbc(dataSource);
  }

  /** Leases up to {@code limit} due rows of {@code kinds} for {@code owner}, in one transaction. */
  public List<LeasedRow> lease(
      String owner, Collection<String> kinds, int limit, Duration lease, boolean ordering) {
    String sql = SQL_LEASE.formatted(SQL_DUE.formatted(ordering ? SQL_OLDEST_OF_ITS_KEY : ""));
    return jdbc.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setArray(1, Jdbc.textArray(connection, kinds));
            statement.setInt(2, limit);
            statement.setString(3, owner);
            statement.setLong(4, lease.toMillis());
            List<LeasedRow> rows = new ArrayList<>(limit);
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                rows.add(
                    new LeasedRow(
                        rs.getLong(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getInt(6),
                        rs.getInt(7),
                        rs.getObject(8, OffsetDateTime.class).toInstant()));
              }
            }
            return rows;
          }
        });
  }

  /**
   * Writes a batch of completions in one transaction, each fenced by id, lease owner and attempt,
   * and records every attempt. Returns, per completion, whether its fence held.
   */
  public boolean[] complete(List<Completion> completions) {
    return jdbc.inTransaction(
        connection -> {
          boolean[] held = new boolean[completions.size()];
          Map<Outcome, PreparedStatement> statements = new EnumMap<>(Outcome.class);
          Map<Outcome, List<Integer>> positions = new EnumMap<>(Outcome.class);
          try {
            for (int i = 0; i < completions.size(); i++) {
              Completion c = completions.get(i);
              Outcome outcome = c.decision().outcome();
              PreparedStatement statement = statements.get(outcome);
              if (statement == null) {
                statement = connection.prepareStatement(COMPLETIONS.get(outcome));
                statements.put(outcome, statement);
              }
              bindCompletion(statement, c);
              statement.addBatch();
              positions.computeIfAbsent(outcome, o -> new ArrayList<>()).add(i);
            }
            for (Map.Entry<Outcome, PreparedStatement> entry : statements.entrySet()) {
              int[] counts = entry.getValue().executeBatch();
              List<Integer> at = positions.get(entry.getKey());
              for (int j = 0; j < counts.length; j++) {
                held[at.get(j)] = counts[j] == 1;
              }
            }
          } finally {
            for (PreparedStatement statement : statements.values()) {
              statement.close();
            }
          }
          recordAttempts(connection, completions, held);
          return held;
        });
  }

  /** Milliseconds until the next row of {@code kinds} is due, if any (may be negative). */
  public OptionalLong millisUntilNextDue(Collection<String> kinds, boolean ordering) {
    String sql = SQL_NEXT_DUE.formatted(ordering ? SQL_OLDEST_OF_ITS_KEY : "");
    return jdbc.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setArray(1, Jdbc.textArray(connection, kinds));
            statement.setArray(2, Jdbc.textArray(connection, kinds));
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              double millis = rs.getDouble(1);
              return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(Math.round(millis));
            }
          }
        });
  }

  public Backlog backlog() {
    return jdbc.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(SQL_BACKLOG);
              ResultSet rs = statement.executeQuery()) {
            rs.next();
            return new Backlog(rs.getLong(1), rs.getDouble(2));
          }
        });
  }

  private static void bindCompletion(PreparedStatement statement, Completion c)
      throws SQLException {
    int i = 1;
    switch (c.decision().outcome()) {
      case DELIVERED:
        Jdbc.setInteger(statement, i++, c.httpStatus());
        break;
      case RETRY:
        statement.setLong(i++, c.decision().retryIn().toMillis());
        Jdbc.setInteger(statement, i++, c.httpStatus());
        statement.setString(i++, c.response().describe());
        break;
      case DEAD:
        Jdbc.setInteger(statement, i++, c.httpStatus());
        statement.setString(i++, c.decision().reason());
        break;
      case RELEASED:
        statement.setString(i++, c.decision().reason());
        break;
      default:
        throw new IllegalArgumentException("not a completion: " + c.decision().outcome());
    }
    statement.setLong(i++, c.row().id());
    statement.setString(i++, c.relayId());
    statement.setInt(i, c.row().attempt());
  }

  private static void recordAttempts(
      Connection connection, List<Completion> completions, boolean[] held) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(SQL_RECORD_ATTEMPT)) {
      for (int i = 0; i < completions.size(); i++) {
        Completion c = completions.get(i);
        Outcome outcome = held[i] ? c.decision().outcome() : Outcome.LEASE_LOST;
        statement.setLong(1, c.row().id());
        statement.setInt(2, c.row().attempt());
        statement.setString(3, c.relayId());
        statement.setObject(4, c.startedAt().atOffset(ZoneOffset.UTC));
        statement.setObject(5, c.finishedAt().atOffset(ZoneOffset.UTC));
        statement.setString(6, outcome.value());
        Jdbc.setInteger(statement, 7, c.httpStatus());
        statement.setString(8, attemptError(c));
        statement.setLong(9, c.row().id());
        statement.addBatch();
      }
      statement.executeBatch();
    }
  }

  private static String attemptError(Completion c) {
    switch (c.decision().outcome()) {
      case DELIVERED:
        return null;
      case RELEASED:
        return c.decision().reason();
      default:
        return c.response().describe();
    }
  }
}
