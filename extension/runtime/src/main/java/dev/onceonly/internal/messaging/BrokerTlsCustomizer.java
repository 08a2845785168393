package dev.onceonly.internal.messaging;

import dev.onceonly.tls.CaTrust;
import io.smallrye.reactive.messaging.ClientCustomizer;
import io.vertx.core.net.TrustOptions;
import io.vertx.rabbitmq.RabbitMQOptions;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Gives every channel of the RabbitMQ connector the platform's broker TLS ({@link
 * BrokerConnections#trust}): AMQPS, trusting the CA file, with the host name checked. The connector
 * alone reads only a JKS trust store; the trust manager given here checks the host name itself, so
 * the check does not depend on which TLS settings the connector's RabbitMQ client passes on to the
 * Java client's socket.
 */
@Singleton
public class BrokerTlsCustomizer implements ClientCustomizer<RabbitMQOptions> {

  private final Optional<CaTrust> trust;

  public BrokerTlsCustomizer() {
    this(ConfigProvider.getConfig());
  }

  BrokerTlsCustomizer(Config config) {
    this.trust = BrokerConnections.trust(config);
  }

  @Override
  public RabbitMQOptions customize(String channel, Config channelConfig, RabbitMQOptions options) {
    trust.ifPresent(
        t -> {
          options.setSsl(true);
          options.setTrustAll(false);
          options.setTrustOptions(TrustOptions.wrap(t.trustManager()));
        });
    return options;
  }
}
