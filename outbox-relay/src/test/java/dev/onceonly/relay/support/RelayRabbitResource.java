package dev.onceonly.relay.support;

import dev.onceonly.testsupport.RabbitMqResource;
import java.util.HashMap;
import java.util.Map;

/**
 * RabbitMQ for the relay's broker tests (the machine's broker in a vhost of its own, or a
 * container), and the destination {@code events} publishing to exchange {@value #EXCHANGE} with
 * routing key {@code test.{payload.run}.{payload.kind}}: a test binds its own queue to {@code
 * test.<its run>.#}. The destination names the broker by a node list whose first node is down
 * ({@code rabbitmq.addresses=127.0.0.1:1,<broker>}): every publish of the relay's broker tests goes
 * through the node that answers, as it would with a cluster node lost.
 */
public class RelayRabbitResource extends RabbitMqResource {

  public static final String DESTINATION = "events";
  public static final String EXCHANGE = "onceonly.relay.test.events";

  /** Where the test's own AMQP client connects: host, port, user, password, vhost. */
  private static volatile Map<String, String> broker = Map.of();

  @Override
  public Map<String, String> start() {
    Map<String, String> started = super.start();
    broker = Map.copyOf(started);
    Map<String, String> config = new HashMap<>();
    String prefix = "relay.destinations.\"" + DESTINATION + "\".";
    config.put(prefix + "type", "rabbitmq");
    config.put(
        prefix + "rabbitmq.addresses",
        "127.0.0.1:1," + started.get("rabbitmq-host") + ":" + started.get("rabbitmq-port"));
    config.put(prefix + "rabbitmq.username", started.get("rabbitmq-username"));
    config.put(prefix + "rabbitmq.password", started.get("rabbitmq-password"));
    config.put(prefix + "rabbitmq.virtual-host", started.get("rabbitmq-virtual-host"));
    config.put(prefix + "rabbitmq.exchange", EXCHANGE);
    config.put(prefix + "rabbitmq.routing-key", "test.{payload.run}.{payload.kind}");
    config.put(prefix + "rabbitmq.confirm-timeout", "5s");
    config.put(prefix + "max-attempts", "50");
    config.put(prefix + "backoff.initial", "200ms");
    config.put(prefix + "backoff.max", "1s");
    config.put(prefix + "breaker.enabled", "false");
    return config;
  }

  /** The broker as the resource started it (keys {@code rabbitmq-host}, ...). */
  public static Map<String, String> broker() {
    return broker;
  }
}
