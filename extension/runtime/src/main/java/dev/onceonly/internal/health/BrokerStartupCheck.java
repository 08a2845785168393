package dev.onceonly.internal.health;

import com.rabbitmq.client.Address;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.messaging.BrokerAddresses;
import dev.onceonly.internal.messaging.BrokerConnections;
import dev.onceonly.tls.CaTrust;
import dev.onceonly.tls.TlsProbe;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Refuses to start when no node of RabbitMQ ({@link BrokerAddresses}) can be reached within the
 * configured time, with an error that names the nodes and the settings to check. (A missing
 * database already fails the start in the migrations, naming its URL.) Without this the connector
 * would retry forever while the service looks started.
 */
@Singleton
public class BrokerStartupCheck {

  private static final Logger LOG = Logger.getLogger(BrokerStartupCheck.class);

  private final List<Address> nodes;
  private final Optional<CaTrust> tls;
  private final Duration timeout;
  private final boolean consumes;

  public BrokerStartupCheck(Config mp, OnceOnlyConfig config, ConsumerCatalog catalog) {
    this.nodes = BrokerAddresses.of(mp);
    this.tls = BrokerConnections.trust(mp);
    this.timeout = config.broker().startupTimeout();
    this.consumes = catalog.all().stream().anyMatch(c -> !c.kafka());
  }

  /**
   * Only where a consumer reads from RabbitMQ: a service that only writes the outbox needs none,
   * and Kafka consumers have the connector's own checks (readiness).
   */
  void onStart(@Observes StartupEvent event) {
    if (consumes) {
      requireReachable(nodes, timeout);
      tls.ifPresent(trust -> requireTrusted(nodes, trust, timeout));
    }
  }

  /**
   * Returns once a TLS handshake with one of the nodes succeeded; throws at once if a node that
   * answers is not trusted or does not speak TLS, and after {@code timeout} if none answered.
   */
  public static void requireTrusted(List<Address> nodes, CaTrust trust, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    String last = "no node tried";
    do {
      for (Address node : nodes) {
        String host = node.getHost();
        int port = node.getPort();
        TlsProbe.Result result = TlsProbe.handshake(host, port, trust, Duration.ofSeconds(5));
        switch (result.outcome()) {
          case TRUSTED:
            return;
          case UNTRUSTED:
            throw new IllegalStateException(
                "RabbitMQ at "
                    + host
                    + ":"
                    + port
                    + " presented a TLS certificate that is not trusted: "
                    + result.detail()
                    + ". The service trusts "
                    + trust.describe()
                    + (trust.verifiesHostname()
                        ? " and checks that the certificate names " + host
                        : "")
                    + " (check "
                    + BrokerConnections.CA_FILE_KEY
                    + " / RABBITMQ_CA_FILE and RABBITMQ_ADDRESSES or RABBITMQ_HOST)");
          case NOT_TLS:
            throw new IllegalStateException(
                "RabbitMQ at "
                    + host
                    + ":"
                    + port
                    + " does not answer TLS ("
                    + result.detail()
                    + "): with quarkus.onceonly.broker.tls.enabled, RABBITMQ_ADDRESSES or"
                    + " RABBITMQ_PORT must name the broker's AMQPS port (usually 5671)");
          default:
            last = host + ":" + port + ": " + result.detail();
            LOG.warnf("RabbitMQ TLS handshake at %s:%d failed: %s", host, port, result.detail());
        }
      }
      pause();
    } while (Instant.now().isBefore(deadline));
    throw new IllegalStateException(
        "no TLS handshake with RabbitMQ at "
            + BrokerAddresses.text(nodes)
            + " within "
            + timeout
            + " (last: "
            + last
            + ")");
  }

  /**
   * Returns once something accepts connections at one of the nodes; throws after {@code timeout}.
   */
  static void requireReachable(List<Address> nodes, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    IOException last = null;
    do {
      for (Address node : nodes) {
        try (Socket socket = new Socket()) {
          socket.connect(new InetSocketAddress(node.getHost(), node.getPort()), 2_000);
          return;
        } catch (IOException e) {
          last = e;
          LOG.warnf(
              "RabbitMQ not reachable at %s:%d yet: %s",
              node.getHost(), node.getPort(), e.getMessage());
        }
      }
      pause();
    } while (Instant.now().isBefore(deadline));
    throw new IllegalStateException(
        "RabbitMQ is not reachable at "
            + BrokerAddresses.text(nodes)
            + " after "
            + timeout
            + " (check RABBITMQ_ADDRESSES, or RABBITMQ_HOST and RABBITMQ_PORT, and that the broker"
            + " is running)",
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
