package dev.onceonly.sandbox.admin;

import java.time.Instant;
import java.util.List;

/**
 * The calls made with one key, whether or not one took effect.
 *
 * @param api receipts or payouts
 * @param idempotencyKey the key
 * @param calls how many calls were received with it
 * @param firstReceivedAt when the first arrived
 * @param lastReceivedAt when the last arrived
 * @param lastAnsweredAt when the last answer left (null if none yet)
 * @param lastOutcome how the last answered call ended (null if none yet)
 * @param effectId the id of the effect taken with the key, null if none
 * @param traceparents the W3C {@code traceparent} of each call, in order (null where a call had
 *     none)
 */
public record KeyCallsView(
    String api,
    String idempotencyKey,
    int calls,
    Instant firstReceivedAt,
    Instant lastReceivedAt,
    Instant lastAnsweredAt,
    String lastOutcome,
    String effectId,
    List<String> traceparents) {}
