package dev.onceonly.relay.lease;

import dev.onceonly.runtime.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * All SQL the relay's delivery loop runs against {@code outbox.outbox} and {@code
 * outbox.outbox_attempts}, each call in a short transaction of its own and never around a provider
 * call (ARCHITECTURE.md §5). Operators' reads and changes are in {@code
 * operations.OutboxQueryRepository} and {@code operations.OutboxChangeRepository}, retention's
 * deletes in {@code retention.RetentionRepository}.
 */
@ApplicationScoped
public class OutboxRepository {

  /**
   * Due rows, oldest first, as many per destination as asked ({@code w.kind}, {@code w.n}: the
   * destinations and their counts, as two arrays); {@code %s} takes the ordering predicate. Each
   * destination is one index scan of {@code outbox_lease_destination_idx} (V6) from the lease floor
   * up, so a destination's lease never walks another's waiting rows. The kind is matched with
   * {@code = ANY(ARRAY[w.kind])} and the rows ordered by {@code kind, id} on purpose: with a plain
   * {@code o.kind = w.kind}, PostgreSQL takes the destination's rows to be spread evenly among all
   * waiting rows and scans {@code outbox_lease_order_idx} (id only) instead, which read 100,000
   * waiting payouts (41 to 83 ms) for a lease of 50 receipts; this reads 50 entries.
   */
  static final String SQL_DUE =
      """
      SELECT d.id
        FROM unnest(?::text[], ?::int[]) AS w(kind, n)
       CROSS JOIN LATERAL (
             SELECT o.id FROM outbox.outbox o
              WHERE o.kind = ANY (ARRAY[w.kind]) AND o.id >= ?
                AND ((o.status = 'pending' AND o.available_at <= now())
                  OR (o.status = 'in_flight' AND o.lease_until < now()))
                %s
              ORDER BY o.kind, o.id
              LIMIT w.n
              FOR UPDATE SKIP LOCKED) d
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
                t.attempts - t.attempts_at_retry, t.created_at, t.trace_parent, t.lease_until
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

  /**
   * The statuses of a row waiting for delivery, bound as a parameter: PostgreSQL keeps one plan for
   * a statement without parameters until something invalidates it, whatever the pool's {@code
   * plan_cache_mode}, and a plan made while the outbox was empty read all of it on every later call
   * (LeasePlanTest). With a parameter, each call is planned for the table as it is.
   */
  static final List<String> WAITING = List.of("pending", "in_flight");

  /** Rows waiting for delivery per destination, and the age of each one's oldest, in seconds. */
  static final String SQL_BACKLOG =
      """
      SELECT kind, count(*), COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)
        FROM outbox.outbox
       WHERE status = ANY (?)
       GROUP BY kind
      """;

  static final String SQL_ID_BOUNDS =
      """
      SELECT (SELECT min(id) FROM outbox.outbox WHERE status = ANY (?)),
             (SELECT coalesce(max(id), 0) FROM outbox.outbox)
      """;

  /** The lowest id still pending or in flight, if any, and the highest id in the outbox. */
  public record IdBounds(OptionalLong lowestWaiting, long highest) {}

  /** Rows waiting for delivery (pending or in flight) and the age of the oldest, in seconds. */
  public record Backlog(long rows, double oldestAgeSeconds) {}

  private final Jdbc jdbc;

  public OutboxRepository(DataSource dataSource) {
    this.jdbc = new Jdbc(dataSource);
  }

  /**
   * Leases, for {@code owner} in one transaction, due rows with an id of at least {@code fromId}:
   * per destination of {@code wanted}, up to its count.
   */
  public List<LeasedRow> lease(
      String owner, Map<String, Integer> wanted, long fromId, Duration lease, boolean ordering) {
    String sql = SQL_LEASE.formatted(SQL_DUE.formatted(ordering ? SQL_OLDEST_OF_ITS_KEY : ""));
    List<String> kinds = List.copyOf(wanted.keySet());
    Integer[] counts = kinds.stream().map(wanted::get).toArray(Integer[]::new);
    int limit = wanted.values().stream().mapToInt(Integer::intValue).sum();
    return jdbc.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setArray(1, Jdbc.textArray(connection, kinds));
            statement.setArray(2, connection.createArrayOf("int4", counts));
            statement.setLong(3, fromId);
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
                        rs.getObject(8, OffsetDateTime.class).toInstant(),
                        rs.getString(9),
                        rs.getObject(10, OffsetDateTime.class).toInstant()));
              }
            }
            return rows;
          }
        });
  }

  /** Milliseconds until the next row of destinations {@code kinds} is due, if any (may be < 0). */
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
          try (PreparedStatement statement = connection.prepareStatement(SQL_ID_BOUNDS)) {
            statement.setArray(1, Jdbc.textArray(connection, WAITING));
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              long lowest = rs.getLong(1);
              OptionalLong waiting = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(lowest);
              return new IdBounds(waiting, rs.getLong(2));
            }
          }
        });
  }

  /** Rows waiting for delivery (pending or in flight) per destination, with their oldest age. */
  public Map<String, Backlog> backlogByDestination() {
    return jdbc.inTransaction(
        connection -> {
          // A parallel scan here took every core for tens of milliseconds each refresh, and the
          // delivery loop's leases waited behind it: one core is plenty for a gauge.
          try (Statement serial = connection.createStatement()) {
            serial.execute("SET LOCAL max_parallel_workers_per_gather = 0");
          }
          try (PreparedStatement statement = connection.prepareStatement(SQL_BACKLOG)) {
            statement.setArray(1, Jdbc.textArray(connection, WAITING));
            Map<String, Backlog> backlog = new TreeMap<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                backlog.put(rs.getString(1), new Backlog(rs.getLong(2), rs.getDouble(3)));
              }
            }
            return backlog;
          }
        });
  }

  /** The waiting rows of every destination together: how many, and the oldest one's age. */
  public static Backlog total(Map<String, Backlog> byDestination) {
    long rows = 0;
    double oldest = 0;
    for (Backlog b : byDestination.values()) {
      rows += b.rows();
      oldest = Math.max(oldest, b.oldestAgeSeconds());
    }
    return new Backlog(rows, oldest);
  }
}
