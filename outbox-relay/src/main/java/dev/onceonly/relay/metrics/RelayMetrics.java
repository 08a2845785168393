package dev.onceonly.relay.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The relay's meters (README "Metrics"); names are a contract for dashboards and alerts. */
@ApplicationScoped
public class RelayMetrics {

  private final MeterRegistry registry;
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, Timer> latencies = new ConcurrentHashMap<>();
  private final AtomicLong backlogRows = new AtomicLong();
  private final AtomicLong oldestAgeMillis = new AtomicLong();

  public RelayMetrics(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("onceonly.relay.pending", backlogRows, AtomicLong::get)
        .description("Outbox rows waiting for delivery (pending or in flight)")
        .register(registry);
    Gauge.builder("onceonly.relay.oldest.pending.age.seconds", oldestAgeMillis, a -> a.get() / 1e3)
        .description("Age of the oldest outbox row waiting for delivery")
        .register(registry);
    // Present at 0 from the start, so dashboards and alerts see them before the first event.
    List.of("retry", "cancel", "replay").forEach(this::operatorCounter);
    List.of("delivered", "cancelled", "keys").forEach(this::retentionCounter);
  }

  /** One provider call started. */
  public void attempt(String kind) {
    counter("onceonly.relay.attempts", kind, null).increment();
  }

  /** One attempt ended with {@code outcome} (delivered, retry, dead, lease_lost, released). */
  public void outcome(String kind, String outcome) {
    counter("onceonly.relay.deliveries", kind, outcome).increment();
    if ("dead".equals(outcome)) {
      counter("onceonly.relay.dead", kind, null).increment();
    }
  }

  /** A row was delivered {@code latency} after it was committed to the outbox. */
  public void delivered(String kind, Duration latency) {
    latencies
        .computeIfAbsent(
            kind,
            k ->
                Timer.builder("onceonly.relay.delivery.latency")
                    .description("Outbox commit to provider delivery")
                    .tag("kind", k)
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

  public void backlog(long rows, double oldestAgeSeconds) {
    backlogRows.set(rows);
    oldestAgeMillis.set(Math.round(oldestAgeSeconds * 1e3));
  }

  private Counter counter(String name, String kind, String outcome) {
    return counters.computeIfAbsent(
        name + '|' + kind + '|' + outcome,
        k -> {
          Counter.Builder builder = Counter.builder(name).tag("kind", kind);
          if (outcome != null) {
            builder.tag("outcome", outcome);
          }
          return builder.register(registry);
        });
  }
}
