package dev.onceonly.relay.retention;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.time.ZoneOffset;
import javax.sql.DataSource;

/**
 * Deletes finished outbox rows in small batches, one short transaction each; their attempts go with
 * them ({@code ON DELETE CASCADE}). {@code SKIP LOCKED}: relays running it side by side share the
 * work instead of waiting on each other.
 */
@ApplicationScoped
public class RetentionRepository {

  static final String SQL_DELETE_DELIVERED =
      """
      DELETE FROM outbox.outbox WHERE id IN (
        SELECT id FROM outbox.outbox
         WHERE status = 'delivered' AND delivered_at < ?
         LIMIT ?
           FOR UPDATE SKIP LOCKED)
      """;

  /** Cancelled rows count from their cancellation (rows cancelled before V3: from creation). */
  static final String SQL_DELETE_CANCELLED =
      """
      DELETE FROM outbox.outbox WHERE id IN (
        SELECT id FROM outbox.outbox
         WHERE status = 'cancelled' AND COALESCE(cancelled_at, created_at) < ?
         LIMIT ?
           FOR UPDATE SKIP LOCKED)
      """;

  /**
   * Outbox keys taken before the cut-off (by the writer, in {@code outbox.outbox_keys}): by then no
   * message that could queue the key again is accepted any more.
   */
  static final String SQL_DELETE_KEYS =
      """
      DELETE FROM outbox.outbox_keys WHERE idempotency_key IN (
        SELECT idempotency_key FROM outbox.outbox_keys
         WHERE created_at < ?
         ORDER BY created_at
         LIMIT ?
           FOR UPDATE SKIP LOCKED)
      """;

  private final DataSource dataSource;

  public RetentionRepository(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Deletes up to {@code limit} rows delivered before {@code cutoff}; returns how many. */
  public int deleteDelivered(Instant cutoff, int limit) {
    return delete(SQL_DELETE_DELIVERED, cutoff, limit);
  }

  /** Deletes up to {@code limit} rows cancelled before {@code cutoff}; returns how many. */
  public int deleteCancelled(Instant cutoff, int limit) {
    return delete(SQL_DELETE_CANCELLED, cutoff, limit);
  }

  /** Deletes up to {@code limit} outbox keys taken before {@code cutoff}; returns how many. */
  public int deleteKeys(Instant cutoff, int limit) {
    return delete(SQL_DELETE_KEYS, cutoff, limit);
  }

  private int delete(String sql, Instant cutoff, int limit) {
    return QuarkusTransaction.requiringNew()
        .call(
            () -> {
              try (Connection connection = dataSource.getConnection();
                  PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setObject(1, cutoff.atOffset(ZoneOffset.UTC));
                statement.setInt(2, limit);
                return statement.executeUpdate();
              }
            });
  }
}
