package dev.onceonly.internal.claim;

import java.time.Instant;
import java.time.LocalDate;

/** A stored claim: this consumer took this message key with this payload. */
public record Claim(
    String consumer,
    String messageKey,
    String payloadSha256,
    LocalDate eventDate,
    Instant processedAt) {}
