package dev.onceonly.relay.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.audit.AuditEntry;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One audited operator change (or dry run). */
@Schema(name = "AuditEntry")
public record AuditEntryView(
    long id,
    String actor,
    @Schema(enumeration = {"retry", "cancel", "replay"}) String action,
    @Schema(description = "The row of a retry or cancel") Long targetId,
    @Schema(description = "The filter of a replay") JsonNode filter,
    @Schema(description = "Rows changed; for a dry run, rows it would have changed")
        int affectedCount,
    boolean dryRun,
    Instant at,
    @Schema(description = "Replay: when its last row becomes due") Instant scheduledUntil) {

  /** The entry on the wire, its stored filter read as JSON. */
  public static AuditEntryView of(AuditEntry e, ObjectMapper json) {
    JsonNode filter;
    try {
      filter = e.filter() == null ? null : json.readTree(e.filter());
    } catch (JsonProcessingException ex) {
      throw new IllegalStateException("audit filter is not JSON: " + e.filter(), ex);
    }
    return new AuditEntryView(
        e.id(),
        e.actor(),
        e.action(),
        e.targetId(),
        filter,
        e.affectedCount(),
        e.dryRun(),
        e.at(),
        e.scheduledUntil());
  }
}
