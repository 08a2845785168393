package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.config.RelayConfig.KindConfig;
import dev.onceonly.relay.provider.ProviderClients;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/** Refuses settings under which the relay would misbehave, with a message naming the key. */
final class ConfigChecks {

  private ConfigChecks() {}

  static PollerSettings settings(RelayConfig config, ProviderClients providers) {
    Set<String> kinds = Set.copyOf(providers.kinds());
    require(!kinds.isEmpty(), "relay.kinds must configure at least one outbox kind");
    require(config.batchSize() >= 1, "relay.batch-size must be >= 1");
    require(config.maxInFlight() >= 1, "relay.max-in-flight must be >= 1");
    require(isPositive(config.pollInterval()), "relay.poll-interval must be > 0");
    for (Map.Entry<String, KindConfig> kind : config.kinds().entrySet()) {
      Duration call = kind.getValue().connectTimeout().plus(kind.getValue().readTimeout());
      // A lease shorter than a call would let another relay (or this one) send the row again
      // while the first call is still running.
      require(
          config.leaseDuration().compareTo(call) > 0,
          "relay.lease-duration ("
              + config.leaseDuration()
              + ") must exceed connect + read timeout of kind '"
              + kind.getKey()
              + "' ("
              + call
              + ")");
    }
    return new PollerSettings(
        kinds,
        config.batchSize(),
        config.maxInFlight(),
        config.leaseDuration(),
        config.pollInterval(),
        config.coalesce(),
        config.ordering());
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
