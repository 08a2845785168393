package dev.onceonly.relay.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A row, its payload with configured fields redacted, and every attempt, oldest first. */
@Schema(name = "OutboxRowDetail")
public record RowDetailView(
    RowView row,
    @Schema(
            description =
                "The payload sent to the provider; fields in relay.operations.redact-fields read \"***\"")
        JsonNode payload,
    List<AttemptView> attempts) {}
