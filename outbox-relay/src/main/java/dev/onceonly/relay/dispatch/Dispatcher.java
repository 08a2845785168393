package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.completion.Completion;
import dev.onceonly.relay.completion.Completions;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.destination.Destinations.Route;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.metrics.RelayMetrics;
import io.opentelemetry.api.trace.Span;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a leased row to its destination (no transaction is open here); {@code
 * completion.Completions} turns the result and the retry policy's verdict into the row's
 * completion.
 */
@ApplicationScoped
public class Dispatcher {

  private final Destinations destinations;
  private final RelayMetrics metrics;
  private final DeliveryTracing tracing;

  public Dispatcher(Destinations destinations, RelayMetrics metrics, DeliveryTracing tracing) {
    this.destinations = destinations;
    this.metrics = metrics;
    this.tracing = tracing;
  }

  /** The future completes normally with the attempt's result, whatever the destination did. */
  public CompletableFuture<Completion> dispatch(LeasedRow row, String relayId) {
    Instant started = Instant.now();
    Route route = destinations.route(row.kind()).orElse(null);
    if (route == null) { // only configured destinations are leased; another is a bug
      return CompletableFuture.completedFuture(
          Completions.unrouted(row, relayId, started, Instant.now()));
    }
    metrics.attempt(row.kind());
    Span span = tracing.start(row, relayId);
    String traceParent = DeliveryTracing.traceParent(span);
    return route
        .destination()
        .send(row, traceParent)
        .thenApply(
            response -> {
              // While the destination's breaker is open, a failed call does not count against
              // the row's budget: rows wait out an outage instead of going dead.
              boolean counted = route.breaker().record(response.outage(), System.nanoTime());
              Completion completion =
                  Completions.decide(
                      route.policy(),
                      row,
                      relayId,
                      response,
                      counted,
                      started,
                      Instant.now(),
                      traceParent);
              DeliveryTracing.finish(span, completion);
              return completion;
            });
  }
}
