package dev.onceonly.relay.audit;

import java.time.Instant;

/**
 * One audited operator change. {@code filter} is JSON text (replays) or null; {@code affectedCount}
 * is the rows changed, or for a dry run the rows it would have changed; {@code scheduledUntil} is
 * when the last row a replay moved becomes due.
 */
public record AuditEntry(
    long id,
    String actor,
    String action,
    Long targetId,
    String filter,
    int affectedCount,
    boolean dryRun,
    Instant at,
    Instant scheduledUntil) {}
