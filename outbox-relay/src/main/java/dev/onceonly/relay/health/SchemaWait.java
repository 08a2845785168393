package dev.onceonly.relay.health;

import dev.onceonly.relay.config.RelayConfig;
import io.quarkus.runtime.Quarkus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
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
 * naming the migrations Job. The waiting itself is the loop the services share ({@link
 * dev.onceonly.runtime.SchemaWait}).
 */
@ApplicationScoped
public class SchemaWait {

  private static final Logger LOG = Logger.getLogger(SchemaWait.class);

  private final dev.onceonly.runtime.SchemaWait wait;
  private final Duration interval;
  private final String version;
  private final Consumer<String> giveUp;

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
    this.wait =
        new dev.onceonly.runtime.SchemaWait(
            "outbox-schema-wait", () -> problems(dataSource), limit, interval);
    this.interval = interval;
    this.version = version;
    this.giveUp = giveUp;
  }

  /**
   * Runs {@code start} once the outbox schema is complete: at once, on this thread, when it already
   * is; otherwise later on the waiting thread, or never if the wait gives up.
   */
  public synchronized void then(Runnable start) {
    if (wait.completeNow()) {
      start.run();
      return;
    }
    LOG.warnf(
        "%s; waiting up to %s (%s)", SchemaCheck.message(wait.problems()), wait.limit(), remedy());
    wait.start(
        interval,
        new dev.onceonly.runtime.SchemaWait.Observer() {
          @Override
          public void missing(List<String> problems) {
            // told above, before the wait began
          }

          @Override
          public void complete() {
            LOG.info("outbox schema complete: starting the relay");
            start.run();
          }

          @Override
          public void gaveUp(List<String> problems) {
            giveUp.accept(
                "outbox schema still missing after "
                    + wait.limit()
                    + ", stopping ("
                    + String.join("; ", problems)
                    + "). Run the migrations: "
                    + remedy());
          }
        });
  }

  /** Whether the relay is waiting for its schema (it then counts as live, not as stuck). */
  public boolean waiting() {
    return wait.waiting();
  }

  /** Stops waiting (shutdown while the schema is still missing). */
  public synchronized void stop() {
    wait.stop();
  }

  private static List<String> problems(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return SchemaCheck.problems(connection);
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private String remedy() {
    return "on Kubernetes the migrations Job of release "
        + version
        + " (kubectl get jobs -l app.kubernetes.io/component=migrations; its log: kubectl logs"
        + " -l app.kubernetes.io/component=migrations), elsewhere consumer-service once with"
        + " DB_MIGRATE=true";
  }
}
