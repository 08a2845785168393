package dev.onceonly.relay.api;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The outbox at a glance. */
@Schema(name = "OutboxStats")
public record StatsView(
    @Schema(description = "Rows per status (every status listed)") Map<String, Long> byStatus,
    @Schema(description = "Rows per kind, then per status") Map<String, Map<String, Long>> byKind,
    @Schema(description = "Age of the oldest row waiting for delivery (pending or in flight)")
        double oldestPendingAgeSeconds,
    @Schema(description = "Ordering keys held back by a dead row, oldest first (at most 100)")
        List<ParkedKeyView> parkedOrderingKeys,
    long parkedOrderingKeysTotal,
    long deliveriesLastMinute,
    Map<String, Long> deliveriesLastMinuteByKind) {

  /** An ordering key whose oldest unfinished row is dead: retry or cancel that row to unpark it. */
  @Schema(name = "ParkedOrderingKey")
  public record ParkedKeyView(String orderingKey, long deadRowId, String kind) {}
}
