package dev.onceonly.relay.health;

import dev.onceonly.relay.config.RelayConfig;
import io.quarkus.runtime.Quarkus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Lets the relay start before its schema exists instead of crash-looping: on Kubernetes the
 * migrations Job and the relay's pods start together. If the outbox schema is complete ({@link
 * SchemaCheck}), what needs it starts at once; otherwise it starts on a thread of its own as soon
 * as the schema is there. Meanwhile the relay is live ({@link PollerLivenessCheck}) and not ready
 * ({@link SchemaHealthCheck} lists what is missing). After {@code relay.schema-wait} it stops,
 * naming the migrations Job.
 */
@ApplicationScoped
public class SchemaWait {

  private static final Logger LOG = Logger.getLogger(SchemaWait.class);

  private final DataSource dataSource;
  private final Duration limit;
  private final Duration interval;
  private final String version;
  private final Consumer<String> giveUp;
  private volatile boolean waiting;
  private volatile List<String> problems = List.of();
  private ScheduledExecutorService timer;

  @Inject
  public SchemaWait(
      DataSource dataSource,
      RelayConfig config,
      @ConfigProperty(name = "quarkus.application.version") String version) {
    this(
        dataSource,
        config.schemaWait(),
        Duration.ofSeconds(1),
        version,
        message -> {
          LOG.error(message);
          Quarkus.asyncExit(1);
        });
  }

  SchemaWait(
      DataSource dataSource,
      Duration limit,
      Duration interval,
      String version,
      Consumer<String> giveUp) {
    this.dataSource = dataSource;
    this.limit = limit;
    this.interval = interval;
    this.version = version;
    this.giveUp = giveUp;
  }

  /**
   * Runs {@code start} once the outbox schema is complete: at once, on this thread, when it already
   * is; otherwise later on the waiting thread, or never if the wait gives up.
   */
  public synchronized void then(Runnable start) {
    if (look()) {
      start.run();
      return;
    }
    waiting = true;
    Instant deadline = Instant.now().plus(limit);
    LOG.warnf("%s; waiting up to %s (%s)", SchemaCheck.message(problems), limit, remedy());
    timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "outbox-schema-wait");
              thread.setDaemon(true);
              return thread;
            });
    timer.scheduleWithFixedDelay(
        () -> {
          if (look()) {
            timer.shutdown();
            LOG.info("outbox schema complete: starting the relay");
            start.run();
            waiting = false;
          } else if (Instant.now().isAfter(deadline)) {
            timer.shutdown();
            waiting = false;
            giveUp.accept(
                "outbox schema still missing after "
                    + limit
                    + ", stopping ("
                    + String.join("; ", problems)
                    + "). Run the migrations: "
                    + remedy());
          }
        },
        interval.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** Whether the relay is waiting for its schema (it then counts as live, not as stuck). */
  public boolean waiting() {
    return waiting;
  }

  /** Stops waiting (shutdown while the schema is still missing). */
  public synchronized void stop() {
    if (timer != null) {
      timer.shutdownNow();
    }
    waiting = false;
  }

  private boolean look() {
    try (Connection connection = dataSource.getConnection()) {
      problems = SchemaCheck.problems(connection);
    } catch (SQLException | RuntimeException e) {
      problems = List.of("database not reachable: " + e.getMessage());
    }
    return problems.isEmpty();
  }

  private String remedy() {
    return "on Kubernetes the migrations Job of release "
        + version
        + " (kubectl get jobs -l app.kubernetes.io/component=migrations; its log: kubectl logs"
        + " -l app.kubernetes.io/component=migrations), elsewhere consumer-service once with"
        + " DB_MIGRATE=true";
  }
}
