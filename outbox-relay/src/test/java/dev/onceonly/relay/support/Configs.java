package dev.onceonly.relay.support;

import dev.onceonly.relay.config.RelayConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The relay's configuration read as Quarkus reads it (the same mapping and duration format), from
 * properties or from environment variables alone: for tests of what a configuration means without
 * starting the application.
 */
public final class Configs {

  private Configs() {}

  /** The mapping over {@code properties} (as in {@code application.properties}). */
  public static RelayConfig fromProperties(Map<String, String> properties) {
    return build(new PropertiesConfigSource(properties, "test-properties", 250))
        .getConfigMapping(RelayConfig.class);
  }

  /** The mapping over environment variables {@code env} only. */
  public static RelayConfig fromEnvironment(Map<String, String> env) {
    return build(new EnvConfigSource(env, 300)).getConfigMapping(RelayConfig.class);
  }

  /**
   * The configuration as such (every property name), over {@code properties}, without the mapping:
   * Quarkus does not refuse keys no mapping knows, it only warns.
   */
  public static SmallRyeConfig raw(Map<String, String> properties) {
    return new SmallRyeConfigBuilder()
        .withSources(new PropertiesConfigSource(properties, "test-properties", 250))
        .build();
  }

  /** The mapping over {@code properties} and, above them, environment variables {@code env}. */
  public static RelayConfig fromPropertiesAndEnvironment(
      Map<String, String> properties, Map<String, String> env) {
    return build(
            new PropertiesConfigSource(properties, "test-properties", 250),
            new EnvConfigSource(env, 300))
        .getConfigMapping(RelayConfig.class);
  }

  private static SmallRyeConfig build(ConfigSource... sources) {
    return new SmallRyeConfigBuilder()
        .withConverter(Duration.class, 200, new DurationConverter())
        .withMapping(RelayConfig.class)
        .withSources(sources)
        .build();
  }
}
