package dev.onceonly.k8s;

import dev.onceonly.model.ProductionEnvironment;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A service's own application.properties, read the way the service reads its settings. */
final class ServiceProperties {

  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z0-9_]+):([^}]*)}");

  /** The module of each Deployment that runs one of our images. */
  static final Map<String, String> MODULES =
      Map.of(
          "consumer-service", "consumer-service",
          "outbox-relay", "outbox-relay",
          "provider-sandbox", "deploy/provider-sandbox");

  final String module;
  private final Properties properties = new Properties();

  ServiceProperties(String module) {
    this.module = module;
    try {
      properties.load(
          new StringReader(Repo.read(module + "/src/main/resources/application.properties")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The settings production must be given (as the packaged service itself checks them). */
  List<ProductionEnvironment.Requirement> requirements() {
    return ProductionEnvironment.requirements(properties);
  }

  String raw(String key) {
    String value = properties.getProperty(key);
    if (value == null) {
      throw new AssertionError(module + " has no " + key);
    }
    return value;
  }

  /** The variable a key reads ({@code ${VAR:default}}). */
  String variable(String key) {
    Matcher m = VARIABLE.matcher(raw(key));
    if (!m.matches()) {
      throw new AssertionError(module + ": " + key + " is not ${VAR:default}: " + raw(key));
    }
    return m.group(1);
  }

  /** The default of a key that reads {@code ${VAR:default}}. */
  String defaultValue(String key) {
    Matcher m = VARIABLE.matcher(raw(key));
    if (!m.matches()) {
      throw new AssertionError(module + ": " + key + " is not ${VAR:default}: " + raw(key));
    }
    return m.group(2);
  }

  /** {@code 10s}, {@code 5m}, {@code 250ms}, {@code 0s} as a Duration. */
  static Duration duration(String text) {
    Matcher m = Pattern.compile("(\\d+)(ms|s|m|h)").matcher(text.strip());
    if (!m.matches()) {
      throw new AssertionError("not a duration: " + text);
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }
}
