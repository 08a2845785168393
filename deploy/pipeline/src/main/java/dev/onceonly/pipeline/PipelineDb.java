package dev.onceonly.pipeline;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Every query the pipeline tools run, read-only, on the database the services share. */
public final class PipelineDb implements AutoCloseable {

  public static final String SQL_OUTBOX_BY_KIND_STATUS =
      """
      SELECT kind || '/' || status, count(*) FROM outbox.outbox GROUP BY kind, status
      """;

  public static final String SQL_CLAIMS_BY_CONSUMER_AND_NAMESPACE =
      """
      SELECT consumer || '/' || split_part(message_key, ':', 1), count(*)
        FROM onceonly.processed_messages GROUP BY 1
      """;

  public static final String SQL_CLAIMS_OF_KEY =
      """
      SELECT count(*) FROM onceonly.processed_messages WHERE message_key = ?
      """;

  public static final String SQL_LEDGER_CREDITS =
      """
      SELECT order_id, points FROM loyalty.point_ledger WHERE order_id IS NOT NULL
      """;

  public static final String SQL_LEDGER_DEBITS =
      """
      SELECT redemption_id, -points FROM loyalty.point_ledger WHERE redemption_id IS NOT NULL
      """;

  /** Customers whose balance differs from the sum of their ledger (either side missing too). */
  public static final String SQL_BALANCES_OFF_LEDGER =
      """
      SELECT count(*)
        FROM loyalty.balances b
        FULL JOIN (SELECT customer_id, sum(points) AS points
                     FROM loyalty.point_ledger GROUP BY customer_id) l USING (customer_id)
       WHERE b.points IS DISTINCT FROM l.points
      """;

  public static final String SQL_BALANCES =
      """
      SELECT customer_id, points FROM loyalty.balances
      """;

  public static final String SQL_CONFLICTS =
      """
      SELECT consumer || ' ' || message_key, count(*) FROM onceonly.message_conflicts GROUP BY 1
      """;

  public static final String SQL_REJECTIONS =
      """
      SELECT consumer || '/' || reason, count(*) FROM onceonly.rejections GROUP BY 1
      """;

  public static final String SQL_PROFILE_VERSIONS =
      """
      SELECT customer_id, version FROM loyalty.customer_profiles
      """;

  public static final String SQL_OUTBOX_KEYS =
      """
      SELECT idempotency_key, status FROM outbox.outbox WHERE kind = ?
      """;

  public static final String SQL_ATTEMPTS_BY_KIND_OUTCOME =
      """
      SELECT o.kind || '/' || a.outcome, count(*)
        FROM outbox.outbox_attempts a JOIN outbox.outbox o ON o.id = a.outbox_id
       GROUP BY 1
      """;

  public static final String SQL_UNFINISHED_ROWS =
      """
      SELECT id || ' ' || kind || ' ' || status || ' attempts=' || attempts
             || ' last_http_status=' || coalesce(last_http_status::text, '-')
             || ' last_error=' || coalesce(left(last_error, 90), '-'), 1
        FROM outbox.outbox WHERE status <> 'delivered' ORDER BY id LIMIT 10
      """;

  private final Connection connection;

  public PipelineDb(Options.Database db) throws SQLException {
    connection = DriverManager.getConnection(db.url(), db.user(), db.password());
    connection.setReadOnly(true);
  }

  /** Two-column queries as a map: text key to a count or amount. */
  public Map<String, Long> counts(String sql, Object... params) throws SQLException {
    Map<String, Long> result = new HashMap<>();
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          result.merge(rs.getString(1), rs.getLong(2), Long::sum);
        }
      }
    }
    return result;
  }

  /** A query of one number. */
  public long single(String sql, Object... params) throws SQLException {
    return counts("SELECT 'n', (" + sql.strip() + ")", params).getOrDefault("n", 0L);
  }

  /** Two-column text queries, e.g. key and status, in row order. */
  public List<String[]> pairs(String sql, Object... params) throws SQLException {
    List<String[]> rows = new ArrayList<>();
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new String[] {rs.getString(1), rs.getString(2)});
        }
      }
    }
    return rows;
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
