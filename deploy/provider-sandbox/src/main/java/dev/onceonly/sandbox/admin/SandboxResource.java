package dev.onceonly.sandbox.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceonly.sandbox.fault.FaultSettingsJson;
import dev.onceonly.sandbox.fault.FaultSwitch;
import dev.onceonly.sandbox.problem.ProblemException;
import dev.onceonly.sandbox.provider.Api;
import dev.onceonly.sandbox.provider.SandboxState;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/** Operating the sandbox: fault switches, counters, reset. */
@Path("/sandbox")
@Produces(MediaType.APPLICATION_JSON)
public class SandboxResource {

  private static final Logger LOG = Logger.getLogger(SandboxResource.class);

  private final FaultSwitch faults;
  private final FaultSettingsJson faultsJson;
  private final SandboxState state;

  public SandboxResource(FaultSwitch faults, FaultSettingsJson faultsJson, SandboxState state) {
    this.faults = faults;
    this.faultsJson = faultsJson;
    this.state = state;
  }

  /** The faults in force, as set and as each API gets them ({@code effective}). */
  @GET
  @Path("/faults")
  public ObjectNode faults() {
    return faultsJson.write(faults.current());
  }

  /** Replaces all faults (unset switches are off); 400 if the settings are not usable. */
  @PUT
  @Path("/faults")
  @Consumes(MediaType.APPLICATION_JSON)
  public ObjectNode replaceFaults(JsonNode body) {
    ObjectNode switched;
    try {
      switched = faultsJson.write(faults.replace(faultsJson.read(body)));
    } catch (IllegalArgumentException e) {
      throw new ProblemException(400, "invalid-faults", "Invalid fault settings", e.getMessage());
    }
    LOG.infof("Faults switched: %s", switched);
    return switched;
  }

  /** Switches every fault off. */
  @DELETE
  @Path("/faults")
  public ObjectNode clearFaults() {
    LOG.info("Faults switched off");
    return faultsJson.write(faults.clear());
  }

  /** Counters per API: raw, effective, replayed and refused calls, injected faults, retries. */
  @GET
  @Path("/stats")
  public Map<String, ApiStatsView> stats() {
    Map<String, ApiStatsView> stats = new LinkedHashMap<>();
    for (Api api : Api.values()) {
      stats.put(api.path(), ApiStatsView.of(state.of(api)));
    }
    return stats;
  }

  /** Forgets every key, effect and counter; the faults stay as they are. */
  @POST
  @Path("/reset")
  public Map<String, ApiStatsView> reset() {
    state.reset();
    LOG.info("Sandbox reset: keys, effects and counters cleared");
    return stats();
  }
}
