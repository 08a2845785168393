package dev.onceonly.consumer.tracing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** The consumer with tracing on (the SDK records spans; tests export them to memory). */
public class TracingProfile implements QuarkusTestProfile {

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of("quarkus.otel.sdk.disabled", "false");
  }
}
