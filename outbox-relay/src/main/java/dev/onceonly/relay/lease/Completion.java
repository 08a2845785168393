package dev.onceonly.relay.lease;

import dev.onceonly.relay.provider.ProviderResponse;
import dev.onceonly.relay.retry.Decision;
import java.time.Instant;

/** The result of one attempt, waiting to be written by a fenced completion. */
public record Completion(
    LeasedRow row,
    String relayId,
    Decision decision,
    ProviderResponse response,
    Instant startedAt,
    Instant finishedAt) {

  /** The HTTP status to store, or {@code null} when the provider never answered. */
  public Integer httpStatus() {
    return response.hasAnswer() ? response.status() : null;
  }
}
