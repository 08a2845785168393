package dev.onceonly.relay.provider;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.retry.Backoff;
import dev.onceonly.relay.retry.RetryPolicy;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The provider client and retry policy of every outbox kind configured under {@code relay.kinds}.
 */
@ApplicationScoped
public class ProviderClients {

  /** A kind's client and the policy that judges its answers. */
  public record Route(ProviderClient client, RetryPolicy policy) {}

  private final Map<String, Route> routes = new TreeMap<>();

  public ProviderClients(RelayConfig config, Vertx vertx) {
    ErrorBodies errorBodies = new ErrorBodies(config.operations().redactFields());
    config
        .kinds()
        .forEach(
            (kind, settings) -> {
              RelayConfig.BackoffConfig b = settings.backoff();
              Backoff backoff = new Backoff(b.initial(), b.multiplier(), b.max(), b.jitter());
              routes.put(
                  kind,
                  new Route(
                      new ProviderClient(kind, settings, vertx, config.maxInFlight(), errorBodies),
                      new RetryPolicy(backoff, settings.maxAttempts(), config.retryAfterMax())));
            });
  }

  /** The kinds this relay leases; rows of any other kind stay untouched. */
  public Set<String> kinds() {
    return routes.keySet();
  }

  public Optional<Route> route(String kind) {
    return Optional.ofNullable(routes.get(kind));
  }
}
