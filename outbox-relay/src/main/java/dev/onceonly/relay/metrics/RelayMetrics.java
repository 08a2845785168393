package dev.onceonly.relay.metrics;

import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.destination.Destinations.Route;
import dev.onceonly.relay.isolation.Breaker;
import dev.onceonly.relay.lease.OutboxRepository.Backlog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The relay's meters (docs/metrics.md); names and the {@code destination} label are a contract for
 * dashboards and alerts. Every configured destination's gauges exist from start.
 */
@ApplicationScoped
public class RelayMetrics {

  static final String DESTINATION = "destination";

  private final MeterRegistry registry;
  private final Set<String> configured;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, Timer> latencies = new ConcurrentHashMap<>();
  private final Map<String, DestinationGauges> gauges = new ConcurrentHashMap<>();
  private final AtomicLong backlogRows = new AtomicLong();
  private final AtomicLong oldestAgeMillis = new AtomicLong();

  /** One destination's backlog, as last read, and its rows no relay here delivers. */
  private record DestinationGauges(
      AtomicLong waiting, AtomicLong oldestMillis, AtomicLong unknown) {}

  @Inject
  public RelayMetrics(MeterRegistry registry, Destinations destinations) {
    this(registry, destinations.all());
  }

  /** The meters of a relay with {@code routes} configured. */
  public RelayMetrics(MeterRegistry registry, List<Route> routes) {
    this.registry = registry;
    this.configured = routes.stream().map(Route::name).collect(Collectors.toUnmodifiableSet());
    Gauge.builder("onceonly.relay.pending", backlogRows, AtomicLong::get)
        .description("Outbox rows waiting for delivery (pending or in flight)")
        .register(registry);
    Gauge.builder("onceonly.relay.oldest.pending.age.seconds", oldestAgeMillis, a -> a.get() / 1e3)
        .description("Age of the oldest outbox row waiting for delivery")
        .register(registry);
    for (Route route : routes) {
      Gauge.builder("onceonly.relay.breaker.open", route.breaker(), RelayMetrics::open)
          .description("1 while the destination's circuit breaker is open or probing (this relay)")
          .tag(DESTINATION, route.name())
          .register(registry);
      gauges(route.name());
    }
    // Present at 0 from the start, so dashboards and alerts see them before the first event.
    List.of("retry", "cancel", "replay").forEach(this::operatorCounter);
    List.of("delivered", "cancelled", "keys").forEach(this::retentionCounter);
  }

  /** One call to a destination started. */
  public void attempt(String destination) {
    counter("onceonly.relay.attempts", destination, null).increment();
  }

  /** One attempt ended with {@code outcome} (delivered, retry, dead, lease_lost, released). */
  public void outcome(String destination, String outcome) {
    counter("onceonly.relay.deliveries", destination, outcome).increment();
    if ("dead".equals(outcome)) {
      counter("onceonly.relay.dead", destination, null).increment();
    }
  }

  /** A row was delivered {@code latency} after it was committed to the outbox. */
  public void delivered(String destination, Duration latency) {
    latencies
        .computeIfAbsent(
            destination,
            d ->
                Timer.builder("onceonly.relay.delivery.latency")
                    .description("Outbox commit to delivery")
                    .tag(DESTINATION, d)
                    .publishPercentiles(0.5, 0.99)
                    .register(registry))
        .record(latency);
  }

  /** An operator changed rows through the API ({@code retry}, {@code cancel}, {@code replay}). */
  public void operatorAction(String action) {
    operatorCounter(action).increment();
  }

  /** The retention job deleted {@code rows} rows of {@code status} (delivered, cancelled). */
  public void retained(String status, long rows) {
    retentionCounter(status).increment(rows);
  }

  /**
   * The rows waiting for delivery, per destination, as just read: the totals, each destination's
   * backlog and oldest age (0 for one with none now), and the rows of destinations this relay is
   * not configured for.
   */
  public void backlog(Map<String, Backlog> byDestination) {
    long rows = 0;
    double oldest = 0;
    for (Map.Entry<String, Backlog> entry : byDestination.entrySet()) {
      rows += entry.getValue().rows();
      oldest = Math.max(oldest, entry.getValue().oldestAgeSeconds());
      gauges(entry.getKey());
    }
    backlogRows.set(rows);
    oldestAgeMillis.set(Math.round(oldest * 1e3));
    gauges.forEach(
        (destination, g) -> {
          Backlog backlog = byDestination.getOrDefault(destination, new Backlog(0, 0));
          g.waiting().set(backlog.rows());
          g.oldestMillis().set(Math.round(backlog.oldestAgeSeconds() * 1e3));
          g.unknown().set(configured.contains(destination) ? 0 : backlog.rows());
        });
  }

  private DestinationGauges gauges(String destination) {
    return gauges.computeIfAbsent(
        destination,
        d -> {
          DestinationGauges g =
              new DestinationGauges(new AtomicLong(), new AtomicLong(), new AtomicLong());
          Gauge.builder("onceonly.relay.destination.pending", g.waiting(), AtomicLong::get)
              .description("Outbox rows waiting for delivery to the destination")
              .tag(DESTINATION, d)
              .register(registry);
          Gauge.builder(
                  "onceonly.relay.destination.oldest.pending.age.seconds",
                  g.oldestMillis(),
                  a -> a.get() / 1e3)
              .description("Age of the destination's oldest row waiting for delivery")
              .tag(DESTINATION, d)
              .register(registry);
          Gauge.builder("onceonly.relay.unknown.destination.rows", g.unknown(), AtomicLong::get)
              .description(
                  "Rows waiting for a destination this relay is not configured for (0 for its own)")
              .tag(DESTINATION, d)
              .register(registry);
          return g;
        });
  }

  private static double open(Breaker breaker) {
    return breaker.state() == Breaker.State.CLOSED ? 0 : 1;
  }

  private Counter operatorCounter(String action) {
    return counters.computeIfAbsent(
        "operator|" + action,
        k ->
            Counter.builder("onceonly.relay.operator.actions")
                .description("Changes made by operators through the API")
                .tag("action", action)
                .register(registry));
  }

  private Counter retentionCounter(String status) {
    return counters.computeIfAbsent(
        "retention|" + status,
        k ->
            Counter.builder("onceonly.relay.retention.deleted")
                .description("Outbox rows removed by retention")
                .tag("status", status)
                .register(registry));
  }

  private Counter counter(String name, String destination, String outcome) {
    return counters.computeIfAbsent(
        name + '|' + destination + '|' + outcome,
        k -> {
          Counter.Builder builder = Counter.builder(name).tag(DESTINATION, destination);
          if (outcome != null) {
            builder.tag("outcome", outcome);
          }
          return builder.register(registry);
        });
  }
}
