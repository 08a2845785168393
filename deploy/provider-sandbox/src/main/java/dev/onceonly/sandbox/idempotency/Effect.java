package dev.onceonly.sandbox.idempotency;

import java.time.Instant;

/**
 * One effect the provider took: the e-mail sent or the payout issued.
 *
 * @param id the provider's id, {@code rcpt_<n>} or {@code po_<n>}
 * @param api {@code receipts} or {@code payouts}
 * @param idempotencyKey the key of the call that took it
 * @param body the request body, canonical JSON
 * @param createdAt when it was taken
 * @param sequence order in which effects were taken
 */
public record Effect(
    String id, String api, String idempotencyKey, byte[] body, Instant createdAt, long sequence) {}
