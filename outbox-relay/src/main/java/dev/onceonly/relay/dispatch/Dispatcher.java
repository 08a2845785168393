package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.completion.Completion;
import dev.onceonly.relay.completion.Completions;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.provider.ProviderClients;
import dev.onceonly.relay.provider.ProviderClients.Route;
import dev.onceonly.relay.provider.ProviderResponse;
import dev.onceonly.relay.retry.Decision;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;

/** Calls the provider of a leased row (no transaction is open here) and decides its outcome. */
@ApplicationScoped
public class Dispatcher {

  private final ProviderClients providers;
  private final RelayMetrics metrics;

  public Dispatcher(ProviderClients providers, RelayMetrics metrics) {
    this.providers = providers;
    this.metrics = metrics;
  }

  /** The future completes normally with the attempt's result, whatever the provider did. */
  public CompletableFuture<Completion> dispatch(LeasedRow row, String relayId) {
    Instant started = Instant.now();
    Route route = providers.route(row.kind()).orElse(null);
    if (route == null) { // only configured kinds are leased; a row of another kind is a bug
      ProviderResponse none = ProviderResponse.noAnswer("no provider configured for " + row.kind());
      return CompletableFuture.completedFuture(
          Completions.of(
              row, relayId, none, Decision.dead(none.describe()), started, Instant.now()));
    }
    metrics.attempt(row.kind());
    return route
        .client()
        .send(row.idempotencyKey(), row.payload())
        .thenApply(response -> decide(route, row, relayId, response, started));
  }

  /** The completion of an answered call; a failure to decide is itself a (retried) completion. */
  private static Completion decide(
      Route route, LeasedRow row, String relayId, ProviderResponse response, Instant started) {
    Instant finished = Instant.now();
    try {
      double random = ThreadLocalRandom.current().nextDouble();
      Decision decision = route.policy().decide(response, row.budgetAttempt(), finished, random);
      return Completions.of(row, relayId, response, decision, started, finished);
    } catch (RuntimeException e) {
      return Completions.undecided(row, relayId, e, started, finished);
    }
  }
}
