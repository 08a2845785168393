package dev.onceonly.relay.api;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Which dead rows to replay; every field is optional ({@code {}} replays every dead row). */
@Schema(name = "ReplayRequest")
public record ReplayRequest(
    @Schema(
            description = "Only dead rows are replayed; give dead or leave it out",
            defaultValue = "dead")
        String status,
    @Schema(description = "A destination, e.g. send_receipt") String destination,
    @Schema(description = "The older name of destination") String kind,
    String orderingKey,
    String idempotencyKey,
    @Schema(format = "date-time", description = "Created at or after (ISO-8601 with offset)")
        String createdAfter,
    @Schema(format = "date-time", description = "Created before (ISO-8601 with offset)")
        String createdBefore,
    @Schema(description = "Only report what would change", defaultValue = "false") Boolean dryRun,
    @Schema(description = "Most rows to move (1 to relay.operations.replay-max-rows, default that)")
        Integer limit,
    @Schema(
            description =
                "Only these rows: send back the ids of a dry run to replay exactly what it"
                    + " selected. Those still dead and matching the other fields move, no other"
                    + " row does (1 to relay.operations.replay-max-rows distinct ids)")
        List<Long> ids) {}
