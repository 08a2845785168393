package dev.onceonly.relay.operations;

import dev.onceonly.model.MessageKeys;
import dev.onceonly.relay.operations.OutboxStats.ParkedKey;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * What operators read from {@code outbox.outbox} and {@code outbox.outbox_attempts}: listings, one
 * row with its attempts, and the numbers behind {@code /outbox/stats}. Read-only, autocommit.
 */
@ApplicationScoped
public class OutboxQueryRepository {

  static final String COLUMNS =
      """
      o.id, o.kind, o.status, o.idempotency_key, o.ordering_key, o.attempts, o.available_at,
      o.created_at, o.delivered_at, o.cancelled_at, o.lease_owner, o.lease_until,
      o.last_http_status, o.last_error, o.source_consumer, o.source_message_key, o.trace_parent
      """;

  /** Keyset page: {@code %s} takes the filter and cursor fragments, then the direction. */
  static final String SQL_LIST =
      "SELECT " + COLUMNS + " FROM outbox.outbox o WHERE true %s ORDER BY o.id %s LIMIT ?";

  static final String AFTER_ASCENDING = " AND o.id > ?";
  static final String AFTER_DESCENDING = " AND o.id < ?";

  static final String SQL_ONE =
      "SELECT " + COLUMNS + ", o.payload::text FROM outbox.outbox o WHERE o.id = ?";

  static final String SQL_ATTEMPTS =
      """
      SELECT attempt, relay_id, outcome, http_status, error, started_at, finished_at, trace_parent
        FROM outbox.outbox_attempts
       WHERE outbox_id = ?
       ORDER BY id
      """;

  static final String SQL_COUNTS =
      "SELECT kind, status, count(*) FROM outbox.outbox GROUP BY kind, status";

  static final String SQL_DELIVERED_LAST_MINUTE =
      """
      SELECT kind, count(*) FROM outbox.outbox
       WHERE status = 'delivered' AND delivered_at > now() - interval '1 minute'
       GROUP BY kind
      """;

  /** Failed attempts (retried or dead) in the last minute, per destination. */
  static final String SQL_FAILED_LAST_MINUTE =
      """
      SELECT destination, count(*) FROM outbox.outbox_attempts
       WHERE finished_at > now() - interval '1 minute' AND outcome = ANY (?)
         AND destination IS NOT NULL
       GROUP BY destination
      """;

  /**
   * Attempts per destination and minute over the last {@code ?} minutes (minutes ago, from 0), the
   * delivered and the failed ones: the console's chart. Attempts are appended in {@code
   * finished_at} order and V6's BRIN index finds the window's pages; those recorded before V6 have
   * no destination and are left out.
   */
  static final String SQL_ACTIVITY =
      """
      SELECT destination,
             floor(EXTRACT(EPOCH FROM now() - finished_at) / 60)::int AS minutes_ago,
             count(*) FILTER (WHERE outcome = 'delivered'),
             count(*) FILTER (WHERE outcome = ANY (?))
        FROM outbox.outbox_attempts
       WHERE finished_at > now() - ? * interval '1 minute' AND destination IS NOT NULL
       GROUP BY 1, 2
      """;

  /** Whether a destination not configured here names a row still waiting or dead. */
  static final String SQL_DESTINATION_HAS_ROWS =
      "SELECT EXISTS (SELECT 1 FROM outbox.outbox WHERE kind = ? AND status = ANY (?))";

  /** The attempt outcomes that are failures of the destination (a lost lease is not). */
  static final List<String> FAILED = List.of("retry", "dead");

  /** The statuses of rows an operator may still act on or wait for. */
  static final List<String> OPEN = List.of("pending", "in_flight", "dead");

  /** Keys whose oldest unfinished row is dead (the relay's ordering rule), with the total. */
  static final String SQL_PARKED_KEYS =
      """
      SELECT ordering_key, id, kind, count(*) OVER ()
        FROM (SELECT DISTINCT ON (ordering_key) ordering_key, id, kind, status
                FROM outbox.outbox
               WHERE ordering_key IS NOT NULL AND status IN ('pending', 'in_flight', 'dead')
               ORDER BY ordering_key, id) oldest
       WHERE status = 'dead'
       ORDER BY id
       LIMIT ?
      """;

  /**
   * Rows an operator's search names, newest first: by idempotency key, by message key (the given
   * keys: the text itself and the order's and redemption's key for an id), or by trace id of the
   * row or of one of its attempts. Each arm is one index lookup (V5: hash indexes on the message
   * key and on the trace id expressions, which the arms repeat, partial predicate included).
   */
  static final String SQL_SEARCH =
      "SELECT "
          + COLUMNS
          + """
            FROM outbox.outbox o
           WHERE o.id IN (
                 SELECT id FROM outbox.outbox WHERE idempotency_key = ?
                 UNION
                 SELECT id FROM outbox.outbox WHERE source_message_key = ANY (?)
                 UNION
                 SELECT id FROM outbox.outbox
                  WHERE split_part(trace_parent, '-', 2) = ? AND trace_parent IS NOT NULL
                 UNION
                 SELECT outbox_id FROM outbox.outbox_attempts
                  WHERE split_part(trace_parent, '-', 2) = ? AND trace_parent IS NOT NULL)
           ORDER BY o.id DESC
           LIMIT ?
          """;

  /** Which way a listing runs; the cursor is the last id of the previous page. */
  public enum Order {
    NEWEST,
    OLDEST
  }

  private final DataSource dataSource;

  public OutboxQueryRepository(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Up to {@code size} rows after {@code cursor} (null: from the start) in {@code order}. */
  public Page<OutboxRow> list(OutboxFilter filter, Order order, Long cursor, int size) {
    boolean newest = order == Order.NEWEST;
    FilterSql where =
        new FilterSql(filter).add(newest ? AFTER_DESCENDING : AFTER_ASCENDING, cursor);
    String sql = SQL_LIST.formatted(where.where(), newest ? "DESC" : "ASC");
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      int next = where.bind(statement, 1);
      statement.setInt(next, size + 1);
      List<OutboxRow> rows = new ArrayList<>(size + 1);
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          rows.add(row(rs));
        }
      }
      if (rows.size() <= size) {
        return new Page<>(rows, null);
      }
      List<OutboxRow> page = rows.subList(0, size);
      return new Page<>(List.copyOf(page), page.get(size - 1).id());
    } catch (SQLException e) {
      throw new IllegalStateException("listing outbox rows failed", e);
    }
  }

  /**
   * Up to {@code limit} rows, newest first, that {@code text} names: as idempotency key, as message
   * key, as order id ({@code order-completed:<text>}) or redemption id ({@code
   * reward-redeemed:<text>}), or, when it is a trace id, by the trace of the row or an attempt.
   */
  public List<OutboxRow> search(String text, int limit) {
    String term = text.strip();
    List<String> messageKeys =
        List.of(term, MessageKeys.orderCompleted(term), MessageKeys.rewardRedeemed(term));
    String lower = term.toLowerCase(Locale.ROOT);
    String traceId = TraceIds.isTraceId(lower) ? lower : null;
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_SEARCH)) {
      statement.setString(1, term);
      statement.setArray(2, connection.createArrayOf("text", messageKeys.toArray()));
      statement.setString(3, traceId);
      statement.setString(4, traceId);
      statement.setInt(5, limit);
      List<OutboxRow> rows = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          rows.add(row(rs));
        }
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException("searching outbox rows failed", e);
    }
  }

  /** The row with its payload and attempts, if it exists. */
  public Optional<RowDetail> find(long id) {
    try (Connection connection = dataSource.getConnection()) {
      OutboxRow row;
      String payload;
      try (PreparedStatement statement = connection.prepareStatement(SQL_ONE)) {
        statement.setLong(1, id);
        try (ResultSet rs = statement.executeQuery()) {
          if (!rs.next()) {
            return Optional.empty();
          }
          row = row(rs);
          payload = rs.getString(18);
        }
      }
      return Optional.of(new RowDetail(row, payload, attempts(connection, id)));
    } catch (SQLException e) {
      throw new IllegalStateException("reading outbox row " + id + " failed", e);
    }
  }

  /** Counts, parked keys (at most {@code parkedShown} listed) and recent deliveries. */
  public OutboxStats stats(double oldestPendingAgeSeconds, int parkedShown) {
    try (Connection connection = dataSource.getConnection()) {
      Map<String, Map<String, Long>> counts = new TreeMap<>();
      try (PreparedStatement statement = connection.prepareStatement(SQL_COUNTS);
          ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          counts
              .computeIfAbsent(rs.getString(1), k -> new TreeMap<>())
              .put(rs.getString(2), rs.getLong(3));
        }
      }
      Map<String, Long> delivered = new TreeMap<>();
      try (PreparedStatement statement = connection.prepareStatement(SQL_DELIVERED_LAST_MINUTE);
          ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          delivered.put(rs.getString(1), rs.getLong(2));
        }
      }
      Map<String, Long> failed = new TreeMap<>();
      try (PreparedStatement statement = connection.prepareStatement(SQL_FAILED_LAST_MINUTE)) {
        statement.setArray(1, connection.createArrayOf("text", FAILED.toArray()));
        try (ResultSet rs = statement.executeQuery()) {
          while (rs.next()) {
            failed.put(rs.getString(1), rs.getLong(2));
          }
        }
      }
      List<ParkedKey> parked = new ArrayList<>();
      long parkedTotal = 0;
      try (PreparedStatement statement = connection.prepareStatement(SQL_PARKED_KEYS)) {
        statement.setInt(1, parkedShown);
        try (ResultSet rs = statement.executeQuery()) {
          while (rs.next()) {
            parked.add(new ParkedKey(rs.getString(1), rs.getLong(2), rs.getString(3)));
            parkedTotal = rs.getLong(4);
          }
        }
      }
      return new OutboxStats(
          counts, oldestPendingAgeSeconds, parked, parkedTotal, delivered, failed);
    } catch (SQLException e) {
      throw new IllegalStateException("reading outbox stats failed", e);
    }
  }

  /**
   * Per destination, delivered and failed attempts in each of the last {@code minutes} minutes,
   * oldest first.
   */
  public Map<String, Activity> activity(int minutes) {
    Map<String, Activity> activity = new TreeMap<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_ACTIVITY)) {
      statement.setArray(1, connection.createArrayOf("text", FAILED.toArray()));
      statement.setInt(2, minutes);
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          int slot = minutes - 1 - rs.getInt(2);
          if (slot >= 0 && slot < minutes) {
            Activity of = activity.computeIfAbsent(rs.getString(1), d -> Activity.empty(minutes));
            of.delivered()[slot] += rs.getLong(3);
            of.failed()[slot] += rs.getLong(4);
          }
        }
      }
      return activity;
    } catch (SQLException e) {
      throw new IllegalStateException("reading attempts per destination failed", e);
    }
  }

  /** Whether rows of {@code destination} are waiting, in flight or dead. */
  public boolean destinationHasRows(String destination) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_DESTINATION_HAS_ROWS)) {
      statement.setString(1, destination);
      statement.setArray(2, connection.createArrayOf("text", OPEN.toArray()));
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("looking for rows of destination " + destination, e);
    }
  }

  private static List<Attempt> attempts(Connection connection, long id) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(SQL_ATTEMPTS)) {
      statement.setLong(1, id);
      List<Attempt> attempts = new ArrayList<>();
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          attempts.add(
              new Attempt(
                  rs.getInt(1),
                  rs.getString(2),
                  rs.getString(3),
                  (Integer) rs.getObject(4),
                  rs.getString(5),
                  instant(rs, 6),
                  instant(rs, 7),
                  TraceIds.of(rs.getString(8))));
        }
      }
      return attempts;
    }
  }

  private static OutboxRow row(ResultSet rs) throws SQLException {
    return new OutboxRow(
        rs.getLong(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        rs.getInt(6),
        instant(rs, 7),
        instant(rs, 8),
        instant(rs, 9),
        instant(rs, 10),
        rs.getString(11),
        instant(rs, 12),
        (Integer) rs.getObject(13),
        rs.getString(14),
        rs.getString(15),
        rs.getString(16),
        TraceIds.of(rs.getString(17)));
  }

  static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
