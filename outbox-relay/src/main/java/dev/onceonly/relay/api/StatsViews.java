package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxStatus;
import dev.onceonly.relay.api.StatsView.DestinationView;
import dev.onceonly.relay.api.StatsView.ParkedKeyView;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.destination.Destinations.Route;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.lease.OutboxRepository.Backlog;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import dev.onceonly.relay.operations.OutboxStats;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The outbox at a glance, for {@code /outbox/stats} and the console alike. */
@ApplicationScoped
public class StatsViews {

  static final int PARKED_SHOWN = 100;

  private final OutboxQueryRepository queries;
  private final OutboxRepository outbox;
  private final Destinations destinations;

  public StatsViews(
      OutboxQueryRepository queries, OutboxRepository outbox, Destinations destinations) {
    this.queries = queries;
    this.outbox = outbox;
    this.destinations = destinations;
  }

  public StatsView current() {
    Map<String, Backlog> backlog = outbox.backlogByDestination();
    OutboxStats stats =
        queries.stats(OutboxRepository.total(backlog).oldestAgeSeconds(), PARKED_SHOWN);
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
    Set<String> names = new TreeSet<>(destinations.names());
    names.addAll(byKind.keySet());
    Map<String, DestinationView> byDestination = new TreeMap<>();
    for (String name : names) {
      Optional<Route> route = destinations.route(name);
      Backlog waiting = backlog.getOrDefault(name, new Backlog(0, 0));
      byDestination.put(
          name,
          new DestinationView(
              route.isPresent(),
              route.map(r -> r.destination().target()).orElse(null),
              byKind.getOrDefault(name, zeroes()),
              waiting.rows(),
              waiting.oldestAgeSeconds(),
              stats.deliveredLastMinute().getOrDefault(name, 0L),
              stats.failedLastMinute().getOrDefault(name, 0L),
              route
                  .map(r -> r.breaker().state().name().toLowerCase(Locale.ROOT))
                  .orElse("unknown")));
    }
    return new StatsView(
        byStatus,
        byKind,
        byDestination,
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
