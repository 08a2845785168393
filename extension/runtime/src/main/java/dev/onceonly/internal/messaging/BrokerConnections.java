package dev.onceonly.internal.messaging;

import com.rabbitmq.client.ConnectionFactory;
import org.eclipse.microprofile.config.Config;

/**
 * The service's own broker connections, beside the messaging connector's (dead letters, replays,
 * queue depths), made from the same {@code rabbitmq-*} settings. They do not recover by themselves:
 * each user opens a new one when it finds its connection closed.
 */
public final class BrokerConnections {

  private BrokerConnections() {}

  public static ConnectionFactory factory(Config config) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(config.getValue("rabbitmq-host", String.class));
    factory.setPort(config.getValue("rabbitmq-port", Integer.class));
    factory.setUsername(config.getValue("rabbitmq-username", String.class));
    factory.setPassword(config.getValue("rabbitmq-password", String.class));
    factory.setVirtualHost(
        config.getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/"));
    factory.setAutomaticRecoveryEnabled(false);
    factory.setConnectionTimeout(5_000);
    return factory;
  }
}
