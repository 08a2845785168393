package dev.onceonly.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every query of the suite on the services' database: progress while a scenario runs, the state the
 * invariants are computed from, and emptying the tables between scenarios. Each call opens its own
 * connection, so that a database stopped or a backend terminated by a scenario costs one call.
 */
final class ChaosDb {

  /** Everything the services write. */
  private static final String TABLES =
      """
      onceonly.processed_messages, onceonly.message_conflicts, onceonly.rejections,
      loyalty.balances, loyalty.point_ledger, loyalty.customer_profiles,
      outbox.outbox_attempts, outbox.outbox, outbox.outbox_keys, outbox.outbox_audit
      """;

  /** Emptied between scenarios (ids keep counting). */
  static final String SQL_EMPTY = "TRUNCATE " + TABLES;

  /**
   * Statistics of the emptied tables, taken at once: TRUNCATE keeps the column statistics of what
   * was there (a table of delivered rows), so the next stream would otherwise be planned for the
   * last one's end state until autovacuum's next look, a moment that falls anywhere in a run.
   */
  static final String SQL_ANALYZE_EMPTIED = "ANALYZE " + TABLES;

  /** Ledger rows per order: more than one is a doubled credit. */
  static final String SQL_CREDITS_PER_ORDER =
      """
      SELECT order_id, count(*) FROM loyalty.point_ledger WHERE order_id IS NOT NULL GROUP BY 1
      """;

  static final String SQL_DEBITS_PER_REDEMPTION =
      """
      SELECT redemption_id, count(*) FROM loyalty.point_ledger
       WHERE redemption_id IS NOT NULL GROUP BY 1
      """;

  /**
   * Orders credited, asked a few times a second while a stream waits between its phases: one count,
   * where {@link #SQL_FIGURES} scans every table (the uniqueness of order_id makes it distinct).
   */
  static final String SQL_CREDITED =
      "SELECT count(*) FROM loyalty.point_ledger WHERE order_id IS NOT NULL";

  /**
   * What scenario 7 waits for, and nothing else: it asks while the consumers are being measured, so
   * the question must cost the database little (the full figures, asked every 50 ms, once took half
   * a core of the two the services share).
   */
  static final String SQL_DECIDED =
      """
      SELECT 'receipt_claims', count(*) FROM onceonly.processed_messages
       WHERE consumer = 'receipts' AND message_key LIKE 'order-completed:%'
      UNION ALL
      SELECT 'debited', count(*) FROM loyalty.point_ledger WHERE redemption_id IS NOT NULL
      UNION ALL
      SELECT 'rejected', count(*) FROM onceonly.rejections
      UNION ALL
      SELECT 'profiles', count(*) FROM loyalty.customer_profiles
      """;

  /** Every claim: its consumer, its key and the start of its transaction. */
  static final String SQL_CLAIMS =
      "SELECT consumer, message_key, processed_at FROM onceonly.processed_messages";

  /** One figure per name: progress and the counts the invariants need. */
  static final String SQL_FIGURES =
      """
      SELECT 'credited', count(DISTINCT order_id) FROM loyalty.point_ledger WHERE order_id IS NOT NULL
      UNION ALL
      SELECT 'receipt_claims', count(*) FROM onceonly.processed_messages
       WHERE consumer = 'receipts' AND message_key LIKE 'order-completed:%'
      UNION ALL
      SELECT 'debited', count(DISTINCT redemption_id) FROM loyalty.point_ledger
       WHERE redemption_id IS NOT NULL
      UNION ALL
      SELECT 'rejected', count(*) FROM onceonly.rejections
      UNION ALL
      SELECT 'profiles', count(*) FROM loyalty.customer_profiles
      UNION ALL
      SELECT 'outbox_' || status, count(*) FROM outbox.outbox GROUP BY status
      UNION ALL
      SELECT 'outbox_rows', count(*) FROM outbox.outbox
      UNION ALL
      SELECT 'balances_off_ledger', count(*)
        FROM loyalty.balances b
        FULL JOIN (SELECT customer_id, sum(points) AS points
                     FROM loyalty.point_ledger GROUP BY customer_id) l USING (customer_id)
       WHERE b.points IS DISTINCT FROM l.points
      UNION ALL
      -- Leases taken and never written back (the holder died; the row waited for the lease to
      -- expire) plus completions fenced off because the lease had expired meanwhile.
      SELECT 'expired_leases',
             (SELECT coalesce(sum(attempts), 0) FROM outbox.outbox)
             - (SELECT count(*) FROM outbox.outbox_attempts WHERE outcome <> 'lease_lost')
      UNION ALL
      SELECT 'lease_lost', count(*) FROM outbox.outbox_attempts WHERE outcome = 'lease_lost'
      UNION ALL
      SELECT 'attempts', count(*) FROM outbox.outbox_attempts
      """;

  static final String SQL_OUTBOX_KEYS =
      """
      SELECT idempotency_key, status FROM outbox.outbox
      """;

  /** Claims committed by transactions that started after the given moment. */
  static final String SQL_CLAIMS_SINCE =
      "SELECT count(*) FROM onceonly.processed_messages WHERE processed_at > ?";

  /**
   * Rows a relay holds under a live lease taken after the given moment (a lease ends one lease
   * duration after it was taken): leases left by an earlier, killed process of the same relay id
   * are not counted.
   */
  static final String SQL_LEASES_TAKEN_SINCE =
      """
      SELECT count(*) FROM outbox.outbox
       WHERE status = 'in_flight' AND lease_owner = ? AND lease_until > now()
         AND lease_until - ?::interval > ?
      """;

  private static final String DEADLOCK = "40P01";
  private static final int EMPTY_ATTEMPTS = 5;

  private final String url;

  ChaosDb(String url) {
    this.url = url;
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url, "postgres", "");
  }

  /**
   * Empties every table. TRUNCATE locks its tables one after another while the services still run,
   * so a service transaction that already reads one of them and then asks for another can close a
   * cycle: PostgreSQL then aborts one side (40P01), and the TRUNCATE is simply run again. Then
   * analyzes them ({@link #SQL_ANALYZE_EMPTIED}).
   */
  void empty() throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = connect();
          Statement s = c.createStatement()) {
        s.execute(SQL_EMPTY);
        s.execute(SQL_ANALYZE_EMPTIED);
        return;
      } catch (SQLException e) {
        if (!DEADLOCK.equals(e.getSQLState()) || attempt == EMPTY_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** {@link #SQL_LEASES_TAKEN_SINCE}. */
  long leasesTakenSince(String owner, Duration lease, Instant since) throws SQLException {
    return count(SQL_LEASES_TAKEN_SINCE, owner, lease.toMillis() + " milliseconds", utc(since));
  }

  /** {@link #SQL_CLAIMS_SINCE}. */
  long claimsSince(Instant since) throws SQLException {
    return count(SQL_CLAIMS_SINCE, utc(since));
  }

  /** Orders credited ({@link #SQL_CREDITED}). */
  long credited() throws SQLException {
    return count(SQL_CREDITED);
  }

  /** The one number a count query answers. */
  private long count(String sql, Object... params) throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static OffsetDateTime utc(Instant at) {
    return OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
  }

  /** The database's clock now. */
  Instant now() throws SQLException {
    return instant("SELECT clock_timestamp()");
  }

  /** Every claim, each with its consumer and its transaction's start. */
  List<ClaimBatches.Claim> claims() throws SQLException {
    List<ClaimBatches.Claim> claims = new ArrayList<>();
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(SQL_CLAIMS);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        claims.add(
            new ClaimBatches.Claim(
                rs.getString(1), rs.getString(2), rs.getTimestamp(3).toInstant()));
      }
    }
    return claims;
  }

  /** The single timestamp a query returns; the epoch if it returns null. */
  Instant instant(String sql) throws SQLException {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      java.sql.Timestamp t = rs.getTimestamp(1);
      return t == null ? Instant.EPOCH : t.toInstant();
    }
  }

  Map<String, Long> figures() throws SQLException {
    return counts(SQL_FIGURES);
  }

  Map<String, Long> counts(String sql) throws SQLException {
    Map<String, Long> result = new HashMap<>();
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        result.merge(rs.getString(1), rs.getLong(2), Long::sum);
      }
    }
    return result;
  }

  Map<String, String> texts(String sql) throws SQLException {
    Map<String, String> result = new HashMap<>();
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        result.put(rs.getString(1), rs.getString(2));
      }
    }
    return result;
  }
}
