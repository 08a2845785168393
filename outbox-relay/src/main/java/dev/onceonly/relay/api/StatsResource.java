package dev.onceonly.relay.api;

import dev.onceonly.web.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Counts, lag and parked keys: the first thing to look at when something is wrong. */
@Path("/outbox/stats")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "outbox")
public class StatsResource {

  private final StatsViews stats;

  public StatsResource(StatsViews stats) {
    this.stats = stats;
  }

  @GET
  @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
  @Operation(
      summary = "Outbox at a glance",
      description =
          "Counts by status and destination, each destination's backlog, oldest waiting age,"
              + " deliveries and failures in the last minute and breaker, the age of the oldest row"
              + " waiting, ordering keys parked"
              + " behind a dead row, and deliveries in the last minute.")
  public StatsView stats() {
    return stats.current();
  }
}
