package dev.onceonly.it.shipping;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.Config;

/** The shop that publishes orders, and a look into the service's queues, over raw AMQP. */
final class Shop implements AutoCloseable {

  static final String EXCHANGE = "shop.events";
  static final String ROUTING_KEY = "order.placed";
  static final String QUEUE = "shipping.orders";
  static final String DEAD_LETTERS = "shipping.orders.dlq";

  private final Connection connection;
  private final Channel channel;

  private Shop(Connection connection) throws IOException {
    this.connection = connection;
    this.channel = connection.createChannel();
    channel.confirmSelect();
  }

  static Shop connect(Config config) {
    return connect(
        config.getValue("rabbitmq-host", String.class),
        config.getValue("rabbitmq-port", Integer.class),
        config.getValue("rabbitmq-virtual-host", String.class));
  }

  static Shop connect(String host, int port, String vhost) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(host);
    factory.setPort(port);
    factory.setUsername("guest");
    factory.setPassword("guest");
    factory.setVirtualHost(vhost);
    try {
      return new Shop(factory.newConnection("shop"));
    } catch (IOException | TimeoutException e) {
      throw new IllegalStateException("cannot reach RabbitMQ for the test", e);
    }
  }

  static String json(String orderId, String customerId, long grams, Instant at) {
    return "{\"orderId\":\""
        + orderId
        + "\",\"customerId\":\""
        + customerId
        + "\",\"weightGrams\":"
        + grams
        + ",\"occurredAt\":\""
        + at
        + "\"}";
  }

  /** Publishes a body with a message id (null: none), persistent, and waits for the confirm. */
  void publish(String messageId, String body) throws Exception {
    AMQP.BasicProperties props =
        new AMQP.BasicProperties.Builder()
            .contentType("application/json")
            .deliveryMode(2)
            .messageId(messageId)
            .headers(Map.of())
            .build();
    channel.basicPublish(EXCHANGE, ROUTING_KEY, props, body.getBytes(StandardCharsets.UTF_8));
    channel.waitForConfirmsOrDie(30_000);
  }

  long depth(String queue) throws IOException {
    return channel.queueDeclarePassive(queue).getMessageCount();
  }

  /** Takes one message off a queue (acked), or null. */
  GetResponse take(String queue) throws IOException {
    return channel.basicGet(queue, true);
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }
}
