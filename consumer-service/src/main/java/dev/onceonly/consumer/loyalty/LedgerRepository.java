package dev.onceonly.consumer.loyalty;

import dev.onceonly.runtime.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
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

  private final Jdbc jdbc;

  public LedgerRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /** Records a credit for an order; false if the order was already credited. */
  public boolean insertCredit(
      String customerId, String orderId, long points, UUID eventId, String messageKey)
      throws SQLException {
    return jdbc.update(SQL_INSERT_CREDIT, customerId, orderId, points, eventId, messageKey) == 1;
  }

  /** Records a debit for a redemption; false if the redemption was already debited. */
  public boolean insertDebit(
      String customerId, String redemptionId, long points, UUID eventId, String messageKey)
      throws SQLException {
    return jdbc.update(SQL_INSERT_DEBIT, customerId, redemptionId, -points, eventId, messageKey)
        == 1;
  }

  /** Takes back a debit row written in this transaction when the balance did not cover it. */
  public void deleteDebit(String redemptionId) throws SQLException {
    jdbc.update(SQL_DELETE_DEBIT, redemptionId);
  }

  /** Adds points, creating the balance if the customer is new. */
  public void creditBalance(String customerId, long points) throws SQLException {
    jdbc.update(SQL_CREDIT_BALANCE, customerId, points);
  }

  /** Takes points only if the balance covers them; false leaves the balance unchanged. */
  public boolean debitBalance(String customerId, long points) throws SQLException {
    return jdbc.update(SQL_DEBIT_BALANCE, points, customerId, points) == 1;
  }
}
