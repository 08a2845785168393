package dev.onceonly.relay.support;

import dev.onceonly.model.OutboxSchema;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * The outbox migrations configured exactly as they run in production: {@link
 * OutboxSchema#flywaySettings()}, which the OnceOnly extension migrates with in every writing
 * service and in the migrations Job of deploy/k8s. The relay never migrates (ARCHITECTURE.md §3);
 * its tests migrate through this, so that they see the schema a deployment gets, and a setting
 * changed there is a setting changed here.
 */
public final class OutboxMigrations {

  private OutboxMigrations() {}

  /** Flyway's own names ({@code flyway.outOfOrder}) for the outbox settings. */
  public static Map<String, String> flywaySettings() {
    return OutboxSchema.flywaySettings();
  }

  /** A Flyway for the outbox schema of {@code url}, set up as the extension sets it up. */
  public static FluentConfiguration configure(String url, String user, String password) {
    return Flyway.configure().dataSource(url, user, password).configuration(flywaySettings());
  }
}
