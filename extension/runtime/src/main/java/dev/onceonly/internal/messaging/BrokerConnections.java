package dev.onceonly.internal.messaging;

import com.rabbitmq.client.ConnectionFactory;
import org.eclipse.microprofile.config.Config;

/**
 * The service's own broker connections, beside the messaging connector's (dead letters, replays,
 * queue depths), made from the same {@code rabbitmq-*} settings, with the connector's defaults.
 * They do not recover by themselves: each user opens a new one when it finds its connection closed.
 */
public final class BrokerConnections {

  private BrokerConnections() {}

  public static ConnectionFactory factory(Config config) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(config.getOptionalValue("rabbitmq-host", String.class).orElse("localhost"));
    factory.setPort(config.getOptionalValue("rabbitmq-port", Integer.class).orElse(5672));
    factory.setUsername(config.getOptionalValue("rabbitmq-username", String.class).orElse("guest"));
    factory.setPassword(config.getOptionalValue("rabbitmq-password", String.class).orElse("guest"));
    factory.setVirtualHost(
        config.getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/"));
    factory.setAutomaticRecoveryEnabled(false);
    factory.setConnectionTimeout(5_000);
    return factory;
  }
}
