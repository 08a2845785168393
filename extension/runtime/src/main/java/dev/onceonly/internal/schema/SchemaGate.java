package dev.onceonly.internal.schema;

import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.runtime.SchemaWait;
import io.quarkus.arc.All;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.ChannelRegistry;
import io.smallrye.reactive.messaging.PausableChannel;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.jboss.logging.Logger;

/**
 * Holds every consumer back until the database schema is complete: every Flyway history (the
 * platform's, the outbox's and the application's own) applied, nothing pending, nothing failed. The
 * consumers' channels start paused (the extension sets {@code pausable.initially-paused} on them),
 * because SmallRye Reactive Messaging starts them in a {@code StartupEvent} observer of priority
 * 1000, before any observer of ours; this gate opens them. Meanwhile the service is live and not
 * ready ({@link SchemaReadinessCheck}), and after {@code quarkus.onceonly.schema-wait} it stops,
 * naming the migrations Job. When the service migrates at start the gate opens at once. At shutdown
 * the gate closes again before anything stops, so that no message reaches the service after its
 * committers are gone (such a message would fail and be dead-lettered).
 */
@Singleton
public class SchemaGate {

  private static final Logger LOG = Logger.getLogger(SchemaGate.class);
  private static final Duration INTERVAL = Duration.ofSeconds(1);

  private final Map<String, Flyway> histories;
  private final ChannelRegistry channels;
  private final List<String> consumerChannels;
  private final SchemaWait wait;
  private final String version;
  private volatile boolean open;

  public SchemaGate(
      PlatformMigrations platform,
      @All List<Flyway> application,
      ChannelRegistry channels,
      ConsumerCatalog catalog,
      OnceOnlyConfig config,
      @ConfigProperty(name = "quarkus.application.version") String version) {
    Map<String, Flyway> all = new TreeMap<>(platform.histories());
    for (Flyway flyway : application) {
      String[] schemas = flyway.getConfiguration().getSchemas();
      all.putIfAbsent(
          schemas.length > 0 ? schemas[0] : flyway.getConfiguration().getTable(), flyway);
    }
    this.histories = Map.copyOf(all);
    this.channels = channels;
    this.consumerChannels = catalog.all().stream().map(ConsumerSpec::channel).toList();
    this.wait = new SchemaWait("schema-gate", this::incomplete, config.schemaWait(), INTERVAL);
    this.version = version;
  }

  void onStart(@Observes StartupEvent event) {
    wait.start(
        Duration.ZERO,
        new SchemaWait.Observer() {
          @Override
          public void missing(List<String> problems) {
            LOG.warnf(
                "database schema incomplete (%s): no message is taken until the migrations ran"
                    + " (%s); waiting up to %s",
                String.join("; ", problems), remedy(), wait.limit());
          }

          @Override
          public void complete() {
            openChannels();
          }

          @Override
          public void gaveUp(List<String> problems) {
            LOG.error(giveUp(problems));
            Quarkus.asyncExit(1);
          }
        });
  }

  /**
   * SIGTERM with a shutdown delay: readiness is DOWN and the service still runs for that delay.
   * Stop handing messages to it now, so the ones in hand commit and are acked while everything is
   * still up; the rest stay unacked and go back to the queue for the other replicas.
   */
  void onShutdownDelay(@Observes ShutdownDelayInitiatedEvent event) {
    closeChannels();
  }

  /**
   * Before the connectors and their worker pool stop (they stop when the application scope ends): a
   * message handed over after that would fail, and its failure would dead-letter it.
   */
  void onStop(@Observes @Priority(1) ShutdownEvent event) {
    wait.stop();
    closeChannels();
  }

  /** Whether the consumers run (the schema was complete). */
  public boolean open() {
    return open;
  }

  /** What the schema still lacks; empty once the gate is open. */
  public List<String> missing() {
    return wait.problems();
  }

  private void closeChannels() {
    List<String> paused = new ArrayList<>();
    for (String name : consumerChannels) {
      PausableChannel channel = channels.getPausable(name);
      if (channel != null && !channel.isPaused()) {
        channel.pause();
        paused.add(name);
      }
    }
    if (!paused.isEmpty()) {
      LOG.infof(
          "shutting down: consumers %s take no new message",
          paused.stream().sorted().collect(Collectors.joining(", ")));
    }
  }

  private List<String> incomplete() {
    List<String> found = new ArrayList<>();
    histories.forEach(
        (name, flyway) -> {
          MigrationInfoService info = flyway.info();
          List<String> failed =
              Arrays.stream(info.all())
                  .filter(m -> m.getState().isFailed())
                  .map(SchemaGate::describe)
                  .toList();
          List<String> pending = Arrays.stream(info.pending()).map(SchemaGate::describe).toList();
          if (!failed.isEmpty()) {
            found.add(name + ": failed " + String.join(", ", failed));
          }
          if (!pending.isEmpty()) {
            found.add(name + ": pending " + String.join(", ", pending));
          }
        });
    found.sort(null);
    return found;
  }

  private void openChannels() {
    List<String> resumed = new ArrayList<>();
    for (String name : consumerChannels) {
      PausableChannel channel = channels.getPausable(name);
      if (channel != null && channel.isPaused()) {
        channel.resume();
        resumed.add(name);
      }
    }
    open = true;
    LOG.infof(
        "database schema complete: consumers %s started",
        resumed.stream().sorted().collect(Collectors.joining(", ")));
  }

  private String giveUp(List<String> missing) {
    return "database schema still incomplete after "
        + wait.limit()
        + " ("
        + String.join("; ", missing)
        + "): stopping. Run the migrations: "
        + remedy();
  }

  private String remedy() {
    return migrationsJob(version)
        + ", elsewhere the service once with quarkus.onceonly.migrate-at-start=true";
  }

  /**
   * Where deploy/k8s migrates: a Job named after its image and settings (onceonly-migrate-<hash>),
   * found by its label.
   */
  static String migrationsJob(String version) {
    return "on Kubernetes the migrations Job of release "
        + version
        + " (kubectl get jobs -l app.kubernetes.io/component=migrations; its log: kubectl logs"
        + " -l app.kubernetes.io/component=migrations)";
  }

  private static String describe(MigrationInfo migration) {
    return migration.getVersion() == null
        ? migration.getDescription()
        : "V" + migration.getVersion() + " " + migration.getDescription();
  }
}
