package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.model.LoyaltyEvent;
import java.sql.SQLException;

/**
 * The effect of one consumer. {@link MessageDecider} calls it inside the claim's transaction, only
 * when the claim inserted (or, for an event older than the claim window, with no claim at all), so
 * an effect never sees a copy its claim caught.
 *
 * <p>Every effect writes a permanent natural key in that transaction (a ledger order or redemption
 * id, an outbox key) and answers {@link Outcome#DUPLICATE} when that key was taken already: this is
 * what decides events older than the claim window, and what reveals a copy claimed on another day.
 */
public interface MessageEffect {

  ConsumerName consumer();

  /**
   * Whether this consumer needs a claim row. A consumer whose effect is idempotent by itself (a
   * version-guarded upsert) may do without.
   */
  default boolean needsClaim() {
    return true;
  }

  /**
   * Applies the effect in the caller's transaction: {@code APPLIED}, {@code DUPLICATE} when its
   * natural key shows it was decided before, or a recorded rejection.
   *
   * @param claimedNow true when the message was claimed in this transaction (its event is within
   *     the claim window); false when the natural keys alone decide it
   */
  Outcome apply(LoyaltyEvent event, boolean claimedNow) throws SQLException;
}
