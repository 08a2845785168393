package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.completion.Completer;
import dev.onceonly.relay.completion.Completion;
import dev.onceonly.relay.completion.CompletionRepository;
import dev.onceonly.relay.destination.Destinations.Route;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.metrics.RelayMetrics;
import java.time.Duration;
import java.util.List;

/**
 * A relay whose process dies after the destination took a row and before its outcome is written: a
 * poller named {@value #OWNER} leasing {@code route}'s rows whose completions never reach the
 * database. Its rows stay in flight under its lease until the lease expires.
 */
final class CrashingRelay {

  static final String OWNER = "relay-crashing";

  private CrashingRelay() {}

  /** Started; stop it with {@code stop(Duration.ZERO)}. */
  static Poller start(
      Route route,
      Duration lease,
      OutboxRepository repository,
      Dispatcher dispatcher,
      CompletionRepository completions,
      RelayMetrics metrics) {
    Completer dies =
        new Completer(completions, metrics) {
          @Override
          public void complete(List<Completion> finished) {}
        };
    Poller crashing =
        new Poller(
            OWNER,
            new PollerSettings(10, lease, Duration.ofMillis(100), Duration.ZERO, true),
            List.of(route),
            repository,
            dispatcher,
            dies);
    crashing.start();
    return crashing;
  }
}
