package dev.onceonly.relay.operations;

import java.util.List;
import java.util.Map;

/**
 * The outbox at a glance.
 *
 * @param counts rows per destination, then per status (only pairs that exist)
 * @param parkedKeys ordering keys whose oldest unfinished row is dead, oldest dead row first
 * @param parkedKeysTotal how many keys are parked (the list may be cut short)
 * @param deliveredLastMinute rows delivered in the last minute, per destination
 * @param failedLastMinute failed attempts (retried or dead) in the last minute, per destination
 */
public record OutboxStats(
    Map<String, Map<String, Long>> counts,
    double oldestPendingAgeSeconds,
    List<ParkedKey> parkedKeys,
    long parkedKeysTotal,
    Map<String, Long> deliveredLastMinute,
    Map<String, Long> failedLastMinute) {

  /** An ordering key held back by its dead row: nothing behind it goes until it is dealt with. */
  public record ParkedKey(String orderingKey, long deadRowId, String kind) {}
}
