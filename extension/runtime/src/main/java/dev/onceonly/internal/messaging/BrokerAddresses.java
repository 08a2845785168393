package dev.onceonly.internal.messaging;

import com.rabbitmq.client.Address;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The broker nodes a service connects to: {@code rabbitmq-addresses} ({@code
 * host1:5672,host2:5672,host3:5672}, the connector's own setting, from {@code RABBITMQ_ADDRESSES})
 * when set, else {@code rabbitmq-host} and {@code rabbitmq-port}. A connection goes to the first
 * node of the list that answers, so the connector and the platform's own connections survive the
 * loss of any node that is not the last one up.
 */
public final class BrokerAddresses {

  public static final String SETTING = "rabbitmq-addresses";

  private BrokerAddresses() {}

  /** The nodes {@code config} names, in order. */
  public static List<Address> of(Config config) {
    Optional<String> list = config.getOptionalValue(SETTING, String.class);
    if (list.isPresent() && !list.get().isBlank()) {
      return parse(list.get(), SETTING);
    }
    return List.of(
        new Address(
            config.getOptionalValue("rabbitmq-host", String.class).orElse("localhost"),
            config.getOptionalValue("rabbitmq-port", Integer.class).orElse(5672)));
  }

  /**
   * {@code host[:port]} entries separated by commas (5672 where the port is left out), or an {@link
   * IllegalArgumentException} naming {@code setting} and the bad entry.
   */
  public static List<Address> parse(String list, String setting) {
    List<Address> addresses = new ArrayList<>();
    for (String entry : list.split(",", -1)) {
      String node = entry.strip();
      int colon = node.lastIndexOf(':');
      String host = colon < 0 ? node : node.substring(0, colon);
      if (host.isEmpty() || host.contains(":") || host.contains(" ")) {
        throw bad(setting, list, entry);
      }
      int port = 5672;
      if (colon >= 0) {
        try {
          port = Integer.parseInt(node.substring(colon + 1));
        } catch (NumberFormatException e) {
          throw bad(setting, list, entry);
        }
        if (port < 1 || port > 65_535) {
          throw bad(setting, list, entry);
        }
      }
      addresses.add(new Address(host, port));
    }
    return List.copyOf(addresses);
  }

  /** {@code host:port,host:port}, for messages. */
  public static String text(List<Address> addresses) {
    return String.join(",", addresses.stream().map(a -> a.getHost() + ":" + a.getPort()).toList());
  }

  private static IllegalArgumentException bad(String setting, String list, String entry) {
    return new IllegalArgumentException(
        setting
            + " must list broker nodes as host:port separated by commas (e.g."
            + " rabbit-0:5672,rabbit-1:5672,rabbit-2:5672), was '"
            + list
            + "' with the entry '"
            + entry.strip()
            + "'");
  }
}
