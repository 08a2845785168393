package dev.onceonly.relay.health;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.dispatch.Poller;
import dev.onceonly.relay.dispatch.RelayRunner;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Alive while the poller loop keeps going round: its last pass must be younger than three poll
 * intervals (at least 15 s, so one slow database call does not get the pod restarted). Also alive
 * while the relay waits for its schema ({@link SchemaWait}).
 */
@Liveness
@ApplicationScoped
public class PollerLivenessCheck implements HealthCheck {

  private final RelayRunner runner;
  private final SchemaWait schemaWait;
  private final Duration stale;

  public PollerLivenessCheck(RelayRunner runner, SchemaWait schemaWait, RelayConfig config) {
    this.runner = runner;
    this.schemaWait = schemaWait;
    Duration threeIntervals = config.pollInterval().multipliedBy(3);
    this.stale =
        threeIntervals.compareTo(Duration.ofSeconds(15)) > 0
            ? threeIntervals
            : Duration.ofSeconds(15);
  }

  @Override
  public HealthCheckResponse call() {
    Optional<Poller> poller = runner.poller();
    if (poller.isEmpty() && schemaWait.waiting()) {
      // Restarting would not make the schema appear: readiness says what is missing.
      return HealthCheckResponse.named("outbox-poller")
          .up()
          .withData("poller", "waiting for the outbox schema")
          .build();
    }
    if (poller.isEmpty()) {
      return HealthCheckResponse.named("outbox-poller")
          .down()
          .withData("poller", "not started")
          .build();
    }
    Duration age = Duration.between(poller.get().heartbeat(), Instant.now());
    return HealthCheckResponse.named("outbox-poller")
        .status(age.compareTo(stale) < 0)
        .withData("relayId", poller.get().relayId())
        .withData("lastLoopMillisAgo", age.toMillis())
        .build();
  }
}
