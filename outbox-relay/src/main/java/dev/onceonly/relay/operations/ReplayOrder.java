package dev.onceonly.relay.operations;

/** A validated replay request: which dead rows, at most how many, and whether only to look. */
public record ReplayOrder(OutboxFilter filter, int limit, boolean dryRun) {}
