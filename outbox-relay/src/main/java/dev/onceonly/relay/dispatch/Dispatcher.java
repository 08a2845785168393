package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.completion.Completion;
import dev.onceonly.relay.completion.Completions;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.provider.ProviderClients;
import dev.onceonly.relay.provider.ProviderClients.Route;
import io.opentelemetry.api.trace.Span;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Calls the provider of a leased row (no transaction is open here); {@code completion.Completions}
 * turns the answer and the retry policy's verdict into the row's completion.
 */
@ApplicationScoped
public class Dispatcher {

  private final ProviderClients providers;
  private final RelayMetrics metrics;
  private final DeliveryTracing tracing;

  public Dispatcher(ProviderClients providers, RelayMetrics metrics, DeliveryTracing tracing) {
    this.providers = providers;
    this.metrics = metrics;
    this.tracing = tracing;
  }

  /** The future completes normally with the attempt's result, whatever the provider did. */
  public CompletableFuture<Completion> dispatch(LeasedRow row, String relayId) {
    Instant started = Instant.now();
    Route route = providers.route(row.kind()).orElse(null);
    if (route == null) { // only configured kinds are leased; a row of another kind is a bug
      return CompletableFuture.completedFuture(
          Completions.unrouted(row, relayId, started, Instant.now()));
    }
    metrics.attempt(row.kind());
    Span span = tracing.start(row, relayId);
    String traceParent = DeliveryTracing.traceParent(span);
    return route
        .client()
        .send(row.idempotencyKey(), row.payload(), traceParent)
        .thenApply(
            response -> {
              Completion completion =
                  Completions.decide(
                      route.policy(), row, relayId, response, started, Instant.now(), traceParent);
              DeliveryTracing.finish(span, completion);
              return completion;
            });
  }
}
