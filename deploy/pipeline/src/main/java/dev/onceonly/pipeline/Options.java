package dev.onceonly.pipeline;

import dev.onceonly.model.BrokerNodes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Command-line options of the form {@code --name=value}; anything else is refused. */
public final class Options {

  private final Map<String, String> values = new HashMap<>();

  public Options(String[] args) {
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 3) {
        throw new IllegalArgumentException("expected --name=value, got '" + arg + "'");
      }
      values.put(arg.substring(2, eq), arg.substring(eq + 1));
    }
  }

  String text(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  String required(String name) {
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("missing option --" + name + "=...");
    }
    return value;
  }

  int number(String name, int fallback) {
    String value = values.get(name);
    try {
      return value == null ? fallback : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, was " + value);
    }
  }

  /** Where the stream goes: {@code --transport=rabbitmq} (the default) or {@code kafka}. */
  Transport transport() {
    String value = text("transport", "rabbitmq");
    return switch (value) {
      case "rabbitmq" -> Transport.RABBITMQ;
      case "kafka" -> Transport.KAFKA;
      default ->
          throw new IllegalArgumentException(
              "--transport must be rabbitmq or kafka, was '" + value + "'");
    };
  }

  /** Kafka's bootstrap servers, {@code --kafka-bootstrap} (host:port,...). */
  String kafkaBootstrap() {
    return required("kafka-bootstrap");
  }

  /** The RabbitMQ broker, as every tool of the pipeline reaches it. */
  Broker broker() {
    return new Broker(
        text("amqp-host", "127.0.0.1"),
        number("amqp-port", 5672),
        text("amqp-vhost", "/"),
        text("amqp-user", "guest"),
        text("amqp-password", "guest"));
  }

  /** JDBC URL, user and password of the database the services share. */
  Database database() {
    return new Database(required("db-url"), text("db-user", "postgres"), text("db-password", ""));
  }

  /** The brokers the pipeline runs on. */
  public enum Transport {
    RABBITMQ,
    KAFKA
  }

  /**
   * The broker's nodes, vhost and credentials: one node, or a cluster's, of which a connection goes
   * to one that answers.
   */
  public record Broker(List<BrokerNodes.Node> nodes, String vhost, String user, String password) {

    public Broker {
      if (nodes.isEmpty()) {
        throw new IllegalArgumentException("a broker needs at least one node");
      }
      nodes = List.copyOf(nodes);
    }

    /** One node. */
    public Broker(String host, int port, String vhost, String user, String password) {
      this(List.of(new BrokerNodes.Node(host, port)), vhost, user, password);
    }
  }

  public record Database(String url, String user, String password) {}
}
