package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import dev.onceonly.relay.api.StatsView.ParkedKeyView;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import dev.onceonly.relay.operations.OutboxStats;
import dev.onceonly.relay.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Counts, lag and parked keys: the first thing to look at when something is wrong. */
@Path("/outbox/stats")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "outbox")
public class StatsResource {

  static final int PARKED_SHOWN = 100;

  private final OutboxQueryRepository queries;
  private final OutboxRepository outbox;

  public StatsResource(OutboxQueryRepository queries, OutboxRepository outbox) {
    this.queries = queries;
    this.outbox = outbox;
  }

  @GET
  @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
  @Operation(
      summary = "Outbox at a glance",
      description =
          "Counts by status and kind, the age of the oldest row waiting, ordering keys parked"
              + " behind a dead row, and deliveries in the last minute.")
  public StatsView stats() {
    OutboxStats stats = queries.stats(outbox.backlog().oldestAgeSeconds(), PARKED_SHOWN);
    Map<String, Long> byStatus = zeroes();
    Map<String, Map<String, Long>> byKind = new TreeMap<>();
    stats
        .counts()
        .forEach(
            (kind, counts) -> {
              Map<String, Long> ofKind = byKind.computeIfAbsent(kind, k -> zeroes());
              counts.forEach(
                  (status, n) -> {
                    ofKind.merge(status, n, Long::sum);
                    byStatus.merge(status, n, Long::sum);
                  });
            });
    return new StatsView(
        byStatus,
        byKind,
        stats.oldestPendingAgeSeconds(),
        stats.parkedKeys().stream()
            .map(p -> new ParkedKeyView(p.orderingKey(), p.deadRowId(), p.kind()))
            .toList(),
        stats.parkedKeysTotal(),
        stats.deliveredLastMinute().values().stream().mapToLong(Long::longValue).sum(),
        stats.deliveredLastMinute());
  }

  private static Map<String, Long> zeroes() {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (OutboxStatus status : OutboxStatus.values()) {
      counts.put(status.value(), 0L);
    }
    return counts;
  }
}
