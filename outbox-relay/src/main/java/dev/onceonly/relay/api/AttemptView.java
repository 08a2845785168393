package dev.onceonly.relay.api;

import dev.onceonly.relay.operations.Attempt;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One provider call for a row. */
@Schema(name = "Attempt")
public record AttemptView(
    int attempt,
    String relayId,
    @Schema(enumeration = {"delivered", "retry", "dead", "lease_lost", "released"}) String outcome,
    @Schema(description = "null when the provider never answered") Integer httpStatus,
    String error,
    Instant startedAt,
    Instant finishedAt,
    Long durationMillis,
    @Schema(description = "Trace id of the call (its traceparent); null when not traced")
        String traceId) {

  public static AttemptView from(Attempt a) {
    Long millis =
        a.startedAt() == null || a.finishedAt() == null
            ? null
            : Duration.between(a.startedAt(), a.finishedAt()).toMillis();
    return new AttemptView(
        a.attempt(),
        a.relayId(),
        a.outcome(),
        a.httpStatus(),
        a.error(),
        a.startedAt(),
        a.finishedAt(),
        millis,
        a.traceId());
  }
}
