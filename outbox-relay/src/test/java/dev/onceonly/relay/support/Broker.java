package dev.onceonly.relay.support;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.onceonly.testsupport.RabbitMqResource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

/**
 * A plain AMQP client for the broker tests, as a consuming service would use the broker: the test
 * exchange, a queue of the test's own bound to its routing keys, and the messages in it.
 */
public final class Broker implements AutoCloseable {

  private final Connection connection;
  private final Channel channel;

  private Broker(Connection connection, Channel channel) {
    this.connection = connection;
    this.channel = channel;
  }

  /** Connected to the broker of {@link RelayRabbitResource}, with the test exchange declared. */
  public static Broker connect() {
    ConnectionFactory factory = RabbitMqResource.connectionFactory(RelayRabbitResource.broker());
    try {
      Connection connection = factory.newConnection("relay-test");
      Channel channel = connection.createChannel();
      channel.exchangeDeclare(RelayRabbitResource.EXCHANGE, "topic", true);
      return new Broker(connection, channel);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A queue of its own (exclusive, server-named), bound to {@code pattern}. */
  public String queue(String pattern) {
    try {
      String queue = channel.queueDeclare().getQueue();
      channel.queueBind(queue, RelayRabbitResource.EXCHANGE, pattern);
      return queue;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every message waiting in {@code queue}, taken (acknowledged) in order. */
  public List<GetResponse> drain(String queue) {
    List<GetResponse> messages = new ArrayList<>();
    try {
      GetResponse message;
      while ((message = channel.basicGet(queue, true)) != null) {
        messages.add(message);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return messages;
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }
}
