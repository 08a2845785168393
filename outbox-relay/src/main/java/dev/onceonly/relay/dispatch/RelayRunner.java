package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.completion.Completer;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.config.RelayIdentity;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.health.SchemaWait;
import dev.onceonly.relay.lease.OutboxRepository;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Starts the relay once the outbox schema is there (at once, or after {@link SchemaWait} waited for
 * it), and stops it gracefully at shutdown. Also builds extra pollers (tests run two relays in one
 * JVM).
 */
@ApplicationScoped
public class RelayRunner {

  private static final Logger LOG = Logger.getLogger(RelayRunner.class);

  private final RelayConfig config;
  private final SchemaWait schemaWait;
  private final OutboxRepository repository;
  private final Dispatcher dispatcher;
  private final Completer completer;
  private final PollerSettings settings;
  private final NotifyListener listener;
  private final Destinations destinations;
  private final String relayId;
  private volatile Poller poller;

  public RelayRunner(
      RelayConfig config,
      RelayIdentity identity,
      SchemaWait schemaWait,
      OutboxRepository repository,
      Destinations destinations,
      Dispatcher dispatcher,
      Completer completer,
      @ConfigProperty(name = "quarkus.datasource.jdbc.url") String url,
      @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
      @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
    this.config = config;
    this.schemaWait = schemaWait;
    this.repository = repository;
    this.dispatcher = dispatcher;
    this.completer = completer;
    this.destinations = destinations;
    this.relayId = identity.id();
    this.settings = ConfigChecks.settings(config, destinations, ConfigProvider.getConfig());
    this.listener = new NotifyListener(url, user.orElse(null), password.orElse(null));
  }

  void onStart(@Observes StartupEvent event) {
    schemaWait.then(this::startRelay);
  }

  private void startRelay() {
    poller = newPoller(relayId);
    if (config.listenNotify()) {
      listener.start();
    }
    poller.start();
    LOG.infof(
        "outbox relay %s delivering %s (batch %d, lease %s, poll %s, ordering %s)",
        relayId,
        destinations.names(),
        settings.batchSize(),
        settings.leaseDuration(),
        settings.pollInterval(),
        settings.ordering() ? "on" : "off");
    destinations
        .all()
        .forEach(
            r ->
                LOG.infof(
                    "destination %s: %s (in flight %d, rate limit %s, breaker %s)",
                    r.name(),
                    r.destination().target(),
                    r.maxInFlight(),
                    r.rateLimit() == null ? "none" : r.rateLimit(),
                    r.breaker()));
  }

  void onStop(@Observes ShutdownEvent event) {
    schemaWait.stop();
    Poller current = poller;
    if (current != null) {
      retire(current, config.shutdownTimeout());
    }
    listener.stop();
  }

  /** The relay's own poller, once started. */
  public Optional<Poller> poller() {
    return Optional.ofNullable(poller);
  }

  /** A further poller with its own lease owner name, woken by the same LISTEN connection. */
  public Poller newPoller(String ownerName) {
    Poller created =
        new Poller(ownerName, settings, destinations.all(), repository, dispatcher, completer);
    listener.subscribe(created);
    return created;
  }

  /** Stops a poller gracefully (see {@link Poller#stop}) and stops waking it. */
  public void retire(Poller stopping, Duration timeout) {
    stopping.stop(timeout);
    listener.unsubscribe(stopping);
  }
}
