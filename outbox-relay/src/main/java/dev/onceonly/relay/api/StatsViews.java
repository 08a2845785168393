package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import dev.onceonly.relay.api.StatsView.ParkedKeyView;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import dev.onceonly.relay.operations.OutboxStats;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** The outbox at a glance, for {@code /outbox/stats} and the console alike. */
@ApplicationScoped
public class StatsViews {

  static final int PARKED_SHOWN = 100;

  private final OutboxQueryRepository queries;
  private final OutboxRepository outbox;

  public StatsViews(OutboxQueryRepository queries, OutboxRepository outbox) {
    this.queries = queries;
    this.outbox = outbox;
  }

  public StatsView current() {
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
