package dev.onceonly.relay.operations;

import java.time.Instant;
import java.util.List;

/**
 * What a replay did or, for a dry run, would do.
 *
 * @param matched dead rows matching the filter
 * @param selected rows this call moves or would move: {@code min(matched, limit)}
 * @param changed rows moved back to pending (0 for a dry run)
 * @param ids the first of the selected rows, oldest first
 * @param scheduledUntil when the last selected row becomes due (null when none)
 */
public record ReplayOutcome(
    long matched,
    int selected,
    int changed,
    boolean dryRun,
    List<Long> ids,
    Instant scheduledUntil) {}
