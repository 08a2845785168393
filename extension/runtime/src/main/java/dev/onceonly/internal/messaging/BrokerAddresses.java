package dev.onceonly.internal.messaging;

import com.rabbitmq.client.Address;
import dev.onceonly.model.BrokerNodes;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The broker nodes a service connects to: {@code rabbitmq-addresses} ({@code
 * host1:5672,host2:5672,host3:5672}, the connector's own setting, from {@code RABBITMQ_ADDRESSES})
 * when set, else {@code rabbitmq-host} and {@code rabbitmq-port}. A connection goes to a node of
 * the list that answers, so the connector and the platform's own connections survive the loss of
 * any node but the last.
 */
public final class BrokerAddresses {

  public static final String SETTING = "rabbitmq-addresses";

  private BrokerAddresses() {}

  /** The nodes {@code config} names, in order. */
  public static List<Address> of(Config config) {
    Optional<String> list = config.getOptionalValue(SETTING, String.class);
    if (list.isPresent() && !list.get().isBlank()) {
      return BrokerNodes.parse(list.get(), SETTING).stream()
          .map(n -> new Address(n.host(), n.port()))
          .toList();
    }
    return List.of(
        new Address(
            config.getOptionalValue("rabbitmq-host", String.class).orElse("localhost"),
            config.getOptionalValue("rabbitmq-port", Integer.class).orElse(BrokerNodes.AMQP_PORT)));
  }

  /** {@code host:port,host:port}, for messages. */
  public static String text(List<Address> addresses) {
    return String.join(",", addresses.stream().map(a -> a.getHost() + ":" + a.getPort()).toList());
  }
}
