package dev.onceonly.sandbox.admin;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * An effect the provider took, with the calls made with its key.
 *
 * @param id the provider's id ({@code rcpt_<n>}, {@code po_<n>})
 * @param api receipts or payouts
 * @param idempotencyKey the key
 * @param body the request body that took effect (canonical JSON)
 * @param createdAt when the effect was taken
 * @param calls how many calls were made with the key, faults and retries included
 * @param lastOutcome how the last answered call with the key ended
 */
public record EffectView(
    String id,
    String api,
    String idempotencyKey,
    JsonNode body,
    Instant createdAt,
    int calls,
    String lastOutcome) {}
