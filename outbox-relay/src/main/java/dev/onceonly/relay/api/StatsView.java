package dev.onceonly.relay.api;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The outbox at a glance. */
@Schema(name = "OutboxStats")
public record StatsView(
    @Schema(description = "Rows per status (every status listed)") Map<String, Long> byStatus,
    @Schema(description = "Rows per destination, then per status (its older name)")
        Map<String, Map<String, Long>> byKind,
    @Schema(
            description =
                "Per destination: configured here or not, where it goes, rows per status, backlog,"
                    + " oldest waiting age, deliveries and failures in the last minute, and this"
                    + " relay's circuit breaker")
        Map<String, DestinationView> byDestination,
    @Schema(description = "Age of the oldest row waiting for delivery (pending or in flight)")
        double oldestPendingAgeSeconds,
    @Schema(description = "Ordering keys held back by a dead row, oldest first (at most 100)")
        List<ParkedKeyView> parkedOrderingKeys,
    long parkedOrderingKeysTotal,
    long deliveriesLastMinute,
    Map<String, Long> deliveriesLastMinuteByKind) {

  /** One destination at a glance. */
  @Schema(name = "DestinationStats")
  public record DestinationView(
      @Schema(
              description =
                  "Whether this relay delivers it; rows of others wait for a relay that does")
          boolean configured,
      @Schema(description = "Where its rows go (no credentials); null when not configured")
          String target,
      @Schema(description = "Rows per status (every status listed)") Map<String, Long> byStatus,
      @Schema(description = "Rows waiting for delivery (pending or in flight)") long backlog,
      @Schema(description = "Age of its oldest row waiting for delivery")
          double oldestWaitingAgeSeconds,
      @Schema(description = "Rows delivered in the last minute") long deliveriesLastMinute,
      @Schema(description = "Failed attempts (retried or dead) in the last minute")
          long failuresLastMinute,
      @Schema(
              description =
                  "This relay's circuit breaker: closed, open or half_open (probing); unknown when"
                      + " not configured here",
              enumeration = {"closed", "open", "half_open", "unknown"})
          String breaker) {}

  /** An ordering key whose oldest unfinished row is dead: retry or cancel that row to unpark it. */
  @Schema(name = "ParkedOrderingKey")
  public record ParkedKeyView(String orderingKey, long deadRowId, String kind) {}
}
