package dev.onceonly.sandbox.admin;

import java.time.Instant;

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
 */
public record KeyCallsView(
    String api,
    String idempotencyKey,
    int calls,
    Instant firstReceivedAt,
    Instant lastReceivedAt,
    Instant lastAnsweredAt,
    String lastOutcome,
    String effectId) {}
