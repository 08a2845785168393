package dev.onceonly.relay.lease;

import dev.onceonly.relay.retry.Decision.Outcome;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
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
       WHERE o.kind = ANY (?) AND o.id >= ?
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

  /**
   * A batch of completions in one statement: each row's outcome is written only where the fence
   * holds (id, lease owner, attempt, still in flight), so a relay that lost its lease writes
   * nothing to the row; every attempt is recorded either way ({@code lease_lost} when the fence did
   * not hold), unless retention already removed the row. Arrays, one element per completion: id,
   * attempt, relay, outcome, HTTP status, retry delay (ms), the row's new {@code last_error}, the
   * attempt's error, start and end (microseconds since the epoch). Returns each recorded attempt's
   * id, number and outcome.
   */
  static final String SQL_COMPLETE =
      """
      WITH input AS (
          SELECT * FROM unnest(?::bigint[], ?::int[], ?::text[], ?::text[], ?::int[], ?::bigint[],
                               ?::text[], ?::text[], ?::bigint[], ?::bigint[])
                 AS i(id, attempt, relay_id, outcome, http_status, retry_ms,
                      row_error, attempt_error, started_at, finished_at)),
      done AS (
          UPDATE outbox.outbox o
             SET status = CASE i.outcome WHEN 'delivered' THEN 'delivered'
                                         WHEN 'dead' THEN 'dead' ELSE 'pending' END,
                 delivered_at = CASE WHEN i.outcome = 'delivered' THEN now() ELSE o.delivered_at END,
                 available_at = CASE i.outcome
                                  WHEN 'retry' THEN now() + i.retry_ms * interval '1 millisecond'
                                  WHEN 'released' THEN now()
                                  ELSE o.available_at END,
                 lease_owner = NULL, lease_until = NULL,
                 last_http_status = CASE WHEN i.outcome = 'released' THEN o.last_http_status
                                         ELSE i.http_status END,
                 last_error = i.row_error
            FROM input i
           WHERE o.id = i.id AND o.lease_owner = i.relay_id AND o.attempts = i.attempt
             AND o.status = 'in_flight'
          RETURNING o.id, o.attempts)
      INSERT INTO outbox.outbox_attempts
             (outbox_id, attempt, relay_id, started_at, finished_at, outcome, http_status, error)
      SELECT i.id, i.attempt, i.relay_id,
             timestamptz 'epoch' + i.started_at * interval '1 microsecond',
             timestamptz 'epoch' + i.finished_at * interval '1 microsecond',
             CASE WHEN d.id IS NULL THEN 'lease_lost' ELSE i.outcome END, i.http_status,
             i.attempt_error
        FROM input i LEFT JOIN done d ON d.id = i.id AND d.attempts = i.attempt
       WHERE EXISTS (SELECT 1 FROM outbox.outbox x WHERE x.id = i.id)
      RETURNING outbox_id, attempt, outcome
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

  static final String SQL_ID_BOUNDS =
      """
      SELECT (SELECT min(id) FROM outbox.outbox WHERE status IN ('pending', 'in_flight')),
             (SELECT coalesce(max(id), 0) FROM outbox.outbox)
      """;

  /** The lowest id still pending or in flight, if any, and the highest id in the outbox. */
  public record IdBounds(OptionalLong lowestWaiting, long highest) {}

  /** Rows waiting for delivery (pending or in flight) and the age of the oldest, in seconds. */
  public record Backlog(long rows, double oldestAgeSeconds) {}

  /** The outcomes a completion writes; the others are never written to a row. */
  private static final Set<Outcome> WRITABLE =
      EnumSet.of(Outcome.DELIVERED, Outcome.RETRY, Outcome.DEAD, Outcome.RELEASED);

  private final Jdbc jdbc;

  public OutboxRepository(DataSource dataSource) {
    this.jdbc = new Jdbc(dataSource);
  }

  /**
   * Leases up to {@code limit} due rows of {@code kinds} with an id of at least {@code fromId} for
   * {@code owner}, in one transaction.
   */
  public List<LeasedRow> lease(
      String owner,
      Collection<String> kinds,
      long fromId,
      int limit,
      Duration lease,
      boolean ordering) {
    String sql = SQL_LEASE.formatted(SQL_DUE.formatted(ordering ? SQL_OLDEST_OF_ITS_KEY : ""));
    return jdbc.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setArray(1, Jdbc.textArray(connection, kinds));
            statement.setLong(2, fromId);
            statement.setInt(3, limit);
            statement.setString(4, owner);
            statement.setLong(5, lease.toMillis());
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
   * Writes a batch of completions in one statement, each fenced by id, lease owner and attempt, and
   * records every attempt. Returns, per completion, whether its fence held.
   */
  public boolean[] complete(List<Completion> completions) {
    int n = completions.size();
    Long[] ids = new Long[n];
    Integer[] attempts = new Integer[n];
    String[] relays = new String[n];
    String[] outcomes = new String[n];
    Integer[] statuses = new Integer[n];
    Long[] retryMillis = new Long[n];
    String[] rowErrors = new String[n];
    String[] attemptErrors = new String[n];
    Long[] started = new Long[n];
    Long[] finished = new Long[n];
    for (int i = 0; i < n; i++) {
      Completion c = completions.get(i);
      Outcome outcome = c.decision().outcome();
      if (!WRITABLE.contains(outcome)) {
        throw new IllegalArgumentException("not a completion: " + outcome);
      }
      ids[i] = c.row().id();
      attempts[i] = c.row().attempt();
      relays[i] = c.relayId();
      outcomes[i] = outcome.value();
      statuses[i] = c.httpStatus();
      retryMillis[i] = outcome == Outcome.RETRY ? c.decision().retryIn().toMillis() : 0L;
      rowErrors[i] = rowError(c);
      attemptErrors[i] = attemptError(c);
      started[i] = epochMicros(c.startedAt());
      finished[i] = epochMicros(c.finishedAt());
    }
    return jdbc.inTransaction(
        connection -> {
          Map<Long, Map<Integer, Boolean>> recorded = new HashMap<>();
          try (PreparedStatement statement = connection.prepareStatement(SQL_COMPLETE)) {
            statement.setArray(1, connection.createArrayOf("int8", ids));
            statement.setArray(2, connection.createArrayOf("int4", attempts));
            statement.setArray(3, connection.createArrayOf("text", relays));
            statement.setArray(4, connection.createArrayOf("text", outcomes));
            statement.setArray(5, connection.createArrayOf("int4", statuses));
            statement.setArray(6, connection.createArrayOf("int8", retryMillis));
            statement.setArray(7, connection.createArrayOf("text", rowErrors));
            statement.setArray(8, connection.createArrayOf("text", attemptErrors));
            statement.setArray(9, connection.createArrayOf("int8", started));
            statement.setArray(10, connection.createArrayOf("int8", finished));
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                recorded
                    .computeIfAbsent(rs.getLong(1), id -> new HashMap<>())
                    .put(rs.getInt(2), !Outcome.LEASE_LOST.value().equals(rs.getString(3)));
              }
            }
          }
          boolean[] held = new boolean[n];
          for (int i = 0; i < n; i++) {
            held[i] = recorded.getOrDefault(ids[i], Map.of()).getOrDefault(attempts[i], false);
          }
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

  /** Where the waiting rows' ids start and the outbox's ids end (see {@code LeaseFloor}). */
  public IdBounds idBounds() {
    return jdbc.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(SQL_ID_BOUNDS);
              ResultSet rs = statement.executeQuery()) {
            rs.next();
            long lowest = rs.getLong(1);
            OptionalLong waiting = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(lowest);
            return new IdBounds(waiting, rs.getLong(2));
          }
        });
  }

  public Backlog backlog() {
    return jdbc.inTransaction(
        connection -> {
          // A parallel scan here took every core for tens of milliseconds each refresh, and the
          // delivery loop's leases waited behind it: one core is plenty for a gauge.
          try (Statement serial = connection.createStatement()) {
            serial.execute("SET LOCAL max_parallel_workers_per_gather = 0");
          }
          try (PreparedStatement statement = connection.prepareStatement(SQL_BACKLOG);
              ResultSet rs = statement.executeQuery()) {
            rs.next();
            return new Backlog(rs.getLong(1), rs.getDouble(2));
          }
        });
  }

  private static long epochMicros(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
  }

  /** What the row keeps as {@code last_error} after this completion. */
  private static String rowError(Completion c) {
    switch (c.decision().outcome()) {
      case DELIVERED:
        return null;
      case RETRY:
        return c.response().describe();
      default:
        return c.decision().reason();
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
