package dev.onceonly.internal.messaging;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.tls.CaTrust;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.Config;

/**
 * The service's own broker connections, beside the messaging connector's (dead letters, replays,
 * queue depths, the queue check), made from the same {@code rabbitmq-*} settings, with the
 * connector's defaults, to the same nodes ({@link BrokerAddresses}). They do not recover by
 * themselves: each user opens a new one when it finds its connection closed, and that one goes to a
 * node of the list that answers. They use the same TLS as the connector's channels ({@link
 * BrokerTlsCustomizer}): {@link #trust} is the one place both read {@code
 * quarkus.onceonly.broker.tls.*} from.
 */
public final class BrokerConnections {

  static final String TLS = "quarkus.onceonly.broker.tls.";
  public static final String CA_FILE_KEY = TLS + "ca-file";

  private BrokerConnections() {}

  public static ConnectionFactory factory(Config config) {
    ConnectionFactory factory = new NodesFactory(BrokerAddresses.of(config));
    factory.setUsername(config.getOptionalValue("rabbitmq-username", String.class).orElse("guest"));
    factory.setPassword(config.getOptionalValue("rabbitmq-password", String.class).orElse("guest"));
    factory.setVirtualHost(
        config.getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/"));
    factory.setAutomaticRecoveryEnabled(false);
    factory.setConnectionTimeout(5_000);
    // The trust manager checks the host name itself, as it does for the connector's channels.
    trust(config).ifPresent(trust -> factory.useSslProtocol(trust.sslContext()));
    return factory;
  }

  /**
   * Whom the broker connections trust when {@code quarkus.onceonly.broker.tls.enabled} is on; empty
   * when it is off. A CA file that cannot be read fails here, naming the key.
   */
  public static Optional<CaTrust> trust(Config config) {
    if (!config.getOptionalValue(TLS + "enabled", Boolean.class).orElse(false)) {
      return Optional.empty();
    }
    return Optional.of(
        CaTrust.of(
            config.getOptionalValue(CA_FILE_KEY, String.class),
            config.getOptionalValue(TLS + "verify-hostname", Boolean.class).orElse(true),
            CA_FILE_KEY));
  }

  /** A factory whose connections go to one of its nodes that answers. */
  private static final class NodesFactory extends ConnectionFactory {

    private final List<Address> nodes;

    NodesFactory(List<Address> nodes) {
      this.nodes = nodes;
      setHost(nodes.get(0).getHost());
      setPort(nodes.get(0).getPort());
    }

    @Override
    public Connection newConnection() throws IOException, TimeoutException {
      return newConnection(nodes);
    }

    @Override
    public Connection newConnection(String connectionName) throws IOException, TimeoutException {
      return newConnection(nodes, connectionName);
    }
  }
}
