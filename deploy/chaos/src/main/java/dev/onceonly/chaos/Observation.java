package dev.onceonly.chaos;

import dev.onceonly.pipeline.DeadLetterPeek;
import java.util.List;
import java.util.Map;

/**
 * The state after a scenario, as read from the database, the dead-letter queues and the provider
 * sandbox; {@link Invariants} judges it against what was sent.
 *
 * @param creditsPerOrder ledger credit rows per order id
 * @param debitsPerRedemption ledger debit rows per redemption id
 * @param figures counts from {@link ChaosDb#SQL_FIGURES} (receipt claims, rejections, leases...)
 * @param balances points per customer
 * @param profileVersions profile version per customer
 * @param outboxKeys every outbox row's idempotency key and status
 * @param effectiveCalls calls the provider took an effect for (both APIs)
 * @param effectsPerKey effects the provider holds per idempotency key (both APIs)
 * @param deadLetters the three dead-letter queues
 */
record Observation(
    Map<String, Long> creditsPerOrder,
    Map<String, Long> debitsPerRedemption,
    Map<String, Long> figures,
    Map<String, Long> balances,
    Map<String, Long> profileVersions,
    Map<String, String> outboxKeys,
    long effectiveCalls,
    Map<String, Long> effectsPerKey,
    List<DeadLetterPeek.Queue> deadLetters) {

  long figure(String name) {
    return figures.getOrDefault(name, 0L);
  }
}
