package dev.onceonly.relay.support;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * The outbox migrations configured exactly as they run in production: the {@code
 * quarkus.flyway.outbox-migrations.*} keys of consumer-service's {@code application.properties}
 * (with its {@code %prod} overrides), which consumer-service and the migrations Job of deploy/k8s
 * (consumer-service's image with {@code QUARKUS_INIT_AND_EXIT=true}) both run with. The relay never
 * migrates (ARCHITECTURE.md §3); its tests migrate through this, so that they see the schema a
 * deployment gets, and a setting changed there is a setting changed here.
 */
public final class OutboxMigrations {

  /** consumer-service's configuration, from this module's directory (where Surefire runs). */
  public static final Path CONSUMER_PROPERTIES =
      Path.of("..", "consumer-service", "src", "main", "resources", "application.properties");

  static final String PREFIX = "quarkus.flyway.outbox-migrations.";

  /** Keys Quarkus acts on itself (when to migrate, which datasource): not Flyway settings. */
  static final Set<String> QUARKUS_ONLY =
      Set.of(
          "migrate-at-start",
          "validate-at-start",
          "repair-at-start",
          "clean-at-start",
          "active",
          "jdbc-url",
          "username",
          "password");

  private OutboxMigrations() {}

  /** Flyway's own names ({@code flyway.outOfOrder}) for consumer-service's outbox settings. */
  public static Map<String, String> flywaySettings() {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(CONSUMER_PROPERTIES, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read consumer-service's configuration at " + CONSUMER_PROPERTIES.toAbsolutePath(),
          e);
    }
    Map<String, String> settings = new TreeMap<>();
    for (String profile : new String[] {"", "%prod."}) {
      for (String name : properties.stringPropertyNames()) {
        if (!name.startsWith(profile + PREFIX)) {
          continue;
        }
        String key = name.substring(profile.length() + PREFIX.length());
        if (QUARKUS_ONLY.contains(key)) {
          continue;
        }
        String value = properties.getProperty(name).trim();
        if (value.contains("${")) {
          throw new IllegalStateException(
              name + " = " + value + ": an expression; teach OutboxMigrations to resolve it");
        }
        settings.put("flyway." + camelCase(key), value);
      }
    }
    return settings;
  }

  /** A Flyway for the outbox schema of {@code url}, set up as consumer-service sets it up. */
  public static FluentConfiguration configure(String url, String user, String password) {
    return Flyway.configure().dataSource(url, user, password).configuration(flywaySettings());
  }

  static String camelCase(String kebab) {
    StringBuilder camel = new StringBuilder();
    boolean upper = false;
    for (char c : kebab.toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        camel.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return camel.toString();
  }
}
