package dev.onceonly.sandbox.admin;

import dev.onceonly.sandbox.fault.FaultSwitch;
import dev.onceonly.sandbox.provider.Api;
import dev.onceonly.sandbox.provider.SandboxState;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/** Ready as soon as it runs; shows the keys held and whether faults are on. */
@Readiness
@ApplicationScoped
public class SandboxReadiness implements HealthCheck {

  private final SandboxState state;
  private final FaultSwitch faults;

  public SandboxReadiness(SandboxState state, FaultSwitch faults) {
    this.state = state;
    this.faults = faults;
  }

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponseBuilder response = HealthCheckResponse.named("provider-sandbox").up();
    for (Api api : Api.values()) {
      response.withData(api.path() + "Keys", state.of(api).store().size());
      response.withData(
          api.path() + "FaultRate", Double.toString(faults.current().rates(api).totalRate()));
    }
    return response.withData("scriptedKeys", faults.current().settings().script().size()).build();
  }
}
