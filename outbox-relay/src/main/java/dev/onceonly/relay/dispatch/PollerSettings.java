package dev.onceonly.relay.dispatch;

import java.time.Duration;

/** What a poller needs to know from the configuration, besides its destinations. */
public record PollerSettings(
    int batchSize,
    Duration leaseDuration,
    Duration pollInterval,
    Duration coalesce,
    boolean ordering) {}
