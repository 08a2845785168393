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

  /**
   * The ledger row of a credit and the balance it adds to, in one statement: the balance changes
   * only if the ledger row went in, and one row changed means credited now. One round trip instead
   * of two for the most common message (deploy/bench/RESULTS.md, 2026-12-07).
   */
  static final String SQL_CREDIT =
      """
      WITH credited AS (
          INSERT INTO loyalty.point_ledger (customer_id, order_id, points, event_id, message_key)
          VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (order_id) DO NOTHING
          RETURNING customer_id, points)
      INSERT INTO loyalty.balances (customer_id, points)
      SELECT customer_id, points FROM credited
      ON CONFLICT (customer_id)
      DO UPDATE SET points = balances.points + EXCLUDED.points, updated_at = now()
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

  static final String SQL_DEBIT_BALANCE =
      """
      UPDATE loyalty.balances SET points = points - ?, updated_at = now()
       WHERE customer_id = ? AND points >= ?
      """;

  private final Jdbc jdbc;

  public LedgerRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Records a credit for an order and adds its points to the balance, creating the balance if the
   * customer is new; false, and nothing changed, if the order was already credited.
   */
  public boolean credit(
      String customerId, String orderId, long points, UUID eventId, String messageKey)
      throws SQLException {
    return jdbc.update(SQL_CREDIT, customerId, orderId, points, eventId, messageKey) == 1;
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

  /** Takes points only if the balance covers them; false leaves the balance unchanged. */
  public boolean debitBalance(String customerId, long points) throws SQLException {
    return jdbc.update(SQL_DEBIT_BALANCE, points, customerId, points) == 1;
  }
}
