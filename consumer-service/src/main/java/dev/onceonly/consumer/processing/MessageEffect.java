package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.model.LoyaltyEvent;
import java.sql.SQLException;

/**
 * The effect of one consumer. {@link IdempotentProcessor} calls it inside the claim's transaction,
 * only when the claim inserted, so an effect never sees a duplicate.
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

  /** Applies the effect in the caller's transaction: {@code APPLIED} or a recorded rejection. */
  Outcome apply(LoyaltyEvent event) throws SQLException;
}
