package dev.onceonly.model;

import java.util.ArrayList;
import java.util.List;

/**
 * A list of broker nodes as services are given it ({@code RABBITMQ_ADDRESSES=rabbit-0:5672,
 * rabbit-1:5672,rabbit-2:5672}, one setting for a cluster), read the same way by the consumers'
 * platform and the relay's destinations.
 */
public final class BrokerNodes {

  /** The AMQP port, where an entry names none. */
  public static final int AMQP_PORT = 5672;

  /** One node. */
  public record Node(String host, int port) {
    @Override
    public String toString() {
      return host + ":" + port;
    }
  }

  private BrokerNodes() {}

  /**
   * {@code host[:port]} entries separated by commas, or an {@link IllegalArgumentException} naming
   * {@code setting} and the bad entry.
   */
  public static List<Node> parse(String list, String setting) {
    List<Node> nodes = new ArrayList<>();
    for (String entry : list.split(",", -1)) {
      String node = entry.strip();
      int colon = node.lastIndexOf(':');
      String host = colon < 0 ? node : node.substring(0, colon);
      if (host.isEmpty() || host.contains(":") || host.contains(" ")) {
        throw bad(setting, list, entry);
      }
      int port = AMQP_PORT;
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
      nodes.add(new Node(host, port));
    }
    return List.copyOf(nodes);
  }

  /** {@code host:port,host:port}, for messages. */
  public static String text(List<Node> nodes) {
    return String.join(",", nodes.stream().map(Node::toString).toList());
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
