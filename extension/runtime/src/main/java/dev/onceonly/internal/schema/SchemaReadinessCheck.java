package dev.onceonly.internal.schema;

import jakarta.inject.Singleton;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Not ready while the consumers wait for the database schema; the data says what is missing. */
@Readiness
@Singleton
public class SchemaReadinessCheck implements HealthCheck {

  private final SchemaGate gate;

  public SchemaReadinessCheck(SchemaGate gate) {
    this.gate = gate;
  }

  @Override
  public HealthCheckResponse call() {
    return HealthCheckResponse.named("database-schema")
        .status(gate.open())
        .withData("missing", String.join("; ", gate.missing()))
        .build();
  }
}
