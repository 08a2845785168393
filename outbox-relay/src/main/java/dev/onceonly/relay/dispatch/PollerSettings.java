package dev.onceonly.relay.dispatch;

import java.time.Duration;
import java.util.Set;

/** What a poller needs to know from the configuration. */
public record PollerSettings(
    Set<String> destinations,
    int batchSize,
    int maxInFlight,
    Duration leaseDuration,
    Duration pollInterval,
    Duration coalesce,
    boolean ordering) {}
