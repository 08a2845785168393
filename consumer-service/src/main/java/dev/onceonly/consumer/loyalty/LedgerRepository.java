package dev.onceonly.consumer.loyalty;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;

/**
 * All SQL that writes {@code loyalty.balances} and {@code loyalty.point_ledger}. Every write is
 * guarded by the ledger's natural key, which never expires.
 */
@ApplicationScoped
public class LedgerRepository {

  static final String SQL_INSERT_CREDIT =
      """
      INSERT INTO loyalty.point_ledger (customer_id, order_id, points, event_id, message_key)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (order_id) DO NOTHING
      """;

  static final String SQL_INSERT_DEBIT =
      """
      INSERT INTO loyalty.point_ledger (customer_id, redemption_id, points, event_id, message_key)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (redemption_id) DO NOTHING
      """;

  static final String SQL_DELETE_DEBIT =
      """
      DELETE FROM loyalty.point_ledger WHERE redemption_id = ?
      """;

  static final String SQL_CREDIT_BALANCE =
      """
      INSERT INTO loyalty.balances (customer_id, points) VALUES (?, ?)
      ON CONFLICT (customer_id)
      DO UPDATE SET points = balances.points + EXCLUDED.points, updated_at = now()
      """;

  static final String SQL_DEBIT_BALANCE =
      """
      UPDATE loyalty.balances SET points = points - ?, updated_at = now()
       WHERE customer_id = ? AND points >= ?
      """;

  private final AgroalDataSource dataSource;

  public LedgerRepository(AgroalDataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Records a credit for an order; false if the order was already credited. */
  public boolean insertCredit(
      String customerId, String orderId, long points, UUID eventId, String messageKey)
      throws SQLException {
    return insert(SQL_INSERT_CREDIT, customerId, orderId, points, eventId, messageKey);
  }

  /** Records a debit for a redemption; false if the redemption was already debited. */
  public boolean insertDebit(
      String customerId, String redemptionId, long points, UUID eventId, String messageKey)
      throws SQLException {
    return insert(SQL_INSERT_DEBIT, customerId, redemptionId, -points, eventId, messageKey);
  }

  /** Takes back a debit row written in this transaction when the balance did not cover it. */
  public void deleteDebit(String redemptionId) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_DELETE_DEBIT)) {
      ps.setString(1, redemptionId);
      ps.executeUpdate();
    }
  }

  /** Adds points, creating the balance if the customer is new. */
  public void creditBalance(String customerId, long points) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_CREDIT_BALANCE)) {
      ps.setString(1, customerId);
      ps.setLong(2, points);
      ps.executeUpdate();
    }
  }

  /** Takes points only if the balance covers them; false leaves the balance unchanged. */
  public boolean debitBalance(String customerId, long points) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_DEBIT_BALANCE)) {
      ps.setLong(1, points);
      ps.setString(2, customerId);
      ps.setLong(3, points);
      return ps.executeUpdate() == 1;
    }
  }

  private boolean insert(
      String sql, String customerId, String naturalKey, long points, UUID eventId, String key)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, customerId);
      ps.setString(2, naturalKey);
      ps.setLong(3, points);
      ps.setObject(4, eventId);
      ps.setString(5, key);
      return ps.executeUpdate() == 1;
    }
  }
}
