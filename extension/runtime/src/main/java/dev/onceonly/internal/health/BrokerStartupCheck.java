package dev.onceonly.internal.health;

import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.config.OnceOnlyConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Refuses to start when RabbitMQ cannot be reached within the configured time, with an error that
 * names the broker and the settings to check. (A missing database already fails the start in the
 * migrations, naming its URL.) Without this the connector would retry forever while the service
 * looks started.
 */
@Singleton
public class BrokerStartupCheck {

  private static final Logger LOG = Logger.getLogger(BrokerStartupCheck.class);

  private final String host;
  private final int port;
  private final Duration timeout;
  private final boolean consumes;

  public BrokerStartupCheck(
      @ConfigProperty(name = "rabbitmq-host", defaultValue = "localhost") String host,
      @ConfigProperty(name = "rabbitmq-port", defaultValue = "5672") int port,
      OnceOnlyConfig config,
      ConsumerCatalog catalog) {
    this.host = host;
    this.port = port;
    this.timeout = config.broker().startupTimeout();
    this.consumes = !catalog.all().isEmpty();
  }

  /**
   * Only where a consumer reads from the broker: a service that only writes the outbox needs none.
   */
  void onStart(@Observes StartupEvent event) {
    if (consumes) {
      requireReachable(host, port, timeout);
    }
  }

  /** Returns once something accepts connections at host:port; throws after {@code timeout}. */
  static void requireReachable(String host, int port, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    IOException last;
    do {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(host, port), 2_000);
        return;
      } catch (IOException e) {
        last = e;
        LOG.warnf("RabbitMQ not reachable at %s:%d yet: %s", host, port, e.getMessage());
      }
      pause();
    } while (Instant.now().isBefore(deadline));
    throw new IllegalStateException(
        "RabbitMQ is not reachable at "
            + host
            + ":"
            + port
            + " after "
            + timeout
            + " (check RABBITMQ_HOST and RABBITMQ_PORT, and that the broker is running)",
        last);
  }

  private static void pause() {
    try {
      Thread.sleep(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for RabbitMQ", e);
    }
  }
}
