package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.destination.Destinations.Route;
import java.time.Duration;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.Config;

/** Refuses settings under which the relay would misbehave, with a message naming the key. */
final class ConfigChecks {

  private ConfigChecks() {}

  static PollerSettings settings(RelayConfig config, Destinations destinations, Config all) {
    renamedKinds(all);
    Set<String> names = Set.copyOf(destinations.names());
    require(
        !names.isEmpty(),
        "relay.destinations must configure at least one destination"
            + " (relay.destinations.\"<name>\".http.url=...)");
    require(config.batchSize() >= 1, "relay.batch-size must be >= 1");
    require(config.maxInFlight() >= 1, "relay.max-in-flight must be >= 1");
    require(isPositive(config.pollInterval()), "relay.poll-interval must be > 0");
    for (Route route : destinations.all()) {
      // A lease shorter than a call would let another relay (or this one) send the row again
      // while the first call is still running.
      require(
          config.leaseDuration().compareTo(route.longestCall()) > 0,
          "relay.lease-duration ("
              + config.leaseDuration()
              + ") must exceed the longest call to destination '"
              + route.name()
              + "' ("
              + route.longestCall()
              + ", connect + read timeout)");
    }
    return new PollerSettings(
        config.batchSize(),
        config.leaseDuration(),
        config.pollInterval(),
        config.coalesce(),
        config.ordering());
  }

  /**
   * {@code relay.kinds} became {@code relay.destinations}: a setting left under the old name would
   * be ignored in silence (a provider URL, a secret), so it stops the start instead.
   */
  static void renamedKinds(Config all) {
    StreamSupport.stream(all.getPropertyNames().spliterator(), false)
        .filter(n -> n.startsWith("relay.kinds.") || n.startsWith("RELAY_KINDS_"))
        .findFirst()
        .ifPresent(
            n -> {
              throw new IllegalStateException(
                  n
                      + " is set, but relay.kinds was renamed: configure relay.destinations.\"<name>\""
                      + " instead (base-url + path became http.url, auth.* became http.auth.*;"
                      + " docs/destinations.md)");
            });
  }

  private static boolean isPositive(Duration duration) {
    return !duration.isNegative() && !duration.isZero();
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
