package dev.onceonly.internal.schema;

import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.model.OutboxSchema;
import io.agroal.api.AgroalDataSource;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.internal.clazz.NoopClassProvider;
import org.jboss.logging.Logger;

/**
 * The two Flyway histories the platform owns, on the application's datasource: its own tables
 * ({@code quarkus.onceonly.schema}, history {@code flyway_onceonly_history}) and the outbox (schema
 * {@code outbox}, history {@code flyway_outbox_history}, the DDL shipped by shared-model, which the
 * relay checks and never migrates). Migrated at start unless {@code
 * quarkus.onceonly.migrate-at-start} is off (a migrations Job does it); the schema gate waits for
 * both either way.
 */
@Singleton
public class PlatformMigrations {

  private static final Logger LOG = Logger.getLogger(PlatformMigrations.class);

  /** The migration files the build found, by history: set once by the recorder. */
  private static volatile Map<String, List<String>> files = Map.of();

  private final Map<String, Flyway> histories = new LinkedHashMap<>();
  private final boolean migrate;

  public PlatformMigrations(AgroalDataSource dataSource, OnceOnlyConfig config) {
    this.migrate = config.migrateAtStart();
    histories.put(
        "onceonly",
        configure(dataSource, config.schema(), "flyway_onceonly_history", PLATFORM)
            // A schema a service moved its old claim tables into has no history yet: V1 adopts
            // them.
            .baselineOnMigrate(true)
            .baselineVersion("0")
            .load());
    histories.put(
        "outbox",
        configure(dataSource, OutboxSchema.SCHEMA, OutboxSchema.HISTORY_TABLE, OUTBOX)
            .configuration(OutboxSchema.flywaySettings())
            .load());
  }

  /** Where the platform's own migrations are, on the class path. */
  public static final String PLATFORM = "db/onceonly";

  /** Where the outbox migrations are (in shared-model). */
  public static final String OUTBOX = OutboxSchema.MIGRATIONS;

  /** Called by the recorder with the files the build found under each location. */
  public static void files(Map<String, List<String>> found) {
    files = Map.copyOf(found);
  }

  private static org.flywaydb.core.api.configuration.FluentConfiguration configure(
      AgroalDataSource dataSource, String schema, String table, String location) {
    return Flyway.configure()
        .dataSource(dataSource)
        .schemas(schema)
        .defaultSchema(schema)
        .table(table)
        .locations(location)
        .resourceProvider(new MigrationFiles(files.getOrDefault(location, List.of())))
        .javaMigrationClassProvider(NoopClassProvider.INSTANCE)
        .validateMigrationNaming(true);
  }

  /**
   * Migrates both histories when the service migrates at start: called by the recorder while the
   * service initialises, before the application starts (so also with {@code quarkus.init-and-exit},
   * the migrations Job), and before anything that needs the tables.
   */
  public void migrateAtStart() {
    if (!migrate) {
      return;
    }
    histories.forEach(
        (name, flyway) -> {
          int applied = flyway.migrate().migrationsExecuted;
          if (applied > 0) {
            LOG.infof("migrated %s: %d migration(s) applied", name, applied);
          }
        });
  }

  /** Both histories, by name, for the schema gate. */
  public Map<String, Flyway> histories() {
    return histories;
  }
}
