package dev.onceonly.relay.api;

import dev.onceonly.relay.operations.ReplayOutcome;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What a replay did, or would do for a dry run. */
@Schema(name = "ReplayResult")
public record ReplayResult(
    @Schema(description = "Dead rows matching the filter") long matched,
    @Schema(description = "Rows this call moves or would move: min(matched, limit)") int selected,
    @Schema(description = "Rows moved back to pending (0 for a dry run)") int changed,
    boolean dryRun,
    @Schema(
            description =
                "The selected row ids, oldest first: every one for a dry run (send them back as"
                    + " ids to replay exactly those), the first relay.operations.replay-ids-shown"
                    + " for a replay")
        List<Long> ids,
    @Schema(description = "When the last selected row becomes due (paced replay)")
        Instant scheduledUntil) {

  public static ReplayResult from(ReplayOutcome o) {
    return new ReplayResult(
        o.matched(), o.selected(), o.changed(), o.dryRun(), o.ids(), o.scheduledUntil());
  }
}
