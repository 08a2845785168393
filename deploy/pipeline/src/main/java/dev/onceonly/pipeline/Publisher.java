package dev.onceonly.pipeline;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Publishes to {@code loyalty.events} as a producer would: persistent, JSON, mandatory (a message
 * no queue takes is returned and counted), with publisher confirms awaited before it returns.
 */
public final class Publisher implements Sink {

  static final String EXCHANGE = "loyalty.events";
  private static final int CONFIRM_EVERY = 500;
  private static final long CONFIRM_TIMEOUT_MS = 30_000;
  private static final AMQP.BasicProperties PROPERTIES =
      new AMQP.BasicProperties.Builder().contentType("application/json").deliveryMode(2).build();

  private final Connection connection;
  private final AtomicInteger returned = new AtomicInteger();

  public Publisher(Options.Broker broker) throws IOException, TimeoutException {
    connection = connect(broker, "onceonly-feed");
    try (Channel channel = connection.createChannel()) {
      channel.exchangeDeclarePassive(EXCHANGE);
    } catch (IOException e) {
      connection.abort();
      throw new IOException(
          "exchange "
              + EXCHANGE
              + " does not exist in vhost "
              + broker.vhost()
              + ": start consumer-service first (it declares the exchange and queues)",
          e);
    }
  }

  /** A connection to a node of the broker that answers. */
  public static Connection connect(Options.Broker broker, String name)
      throws IOException, TimeoutException {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setVirtualHost(broker.vhost());
    factory.setUsername(broker.user());
    factory.setPassword(broker.password());
    List<Address> nodes =
        broker.nodes().stream().map(n -> new Address(n.host(), n.port())).toList();
    return factory.newConnection(nodes, name);
  }

  /** Publishes in order on one channel and waits for every confirm. */
  @Override
  public void publish(List<Outgoing> messages) throws Exception {
    try (Channel channel = confirmingChannel()) {
      int sinceConfirm = 0;
      for (Outgoing m : messages) {
        channel.basicPublish(EXCHANGE, m.routingKey(), true, PROPERTIES, m.body());
        if (++sinceConfirm == CONFIRM_EVERY) {
          channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
          sinceConfirm = 0;
        }
      }
      channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
    }
  }

  @Override
  public void publishTwice(List<Outgoing> messages) throws Exception {
    Sink.inStep(
        messages,
        () -> {
          Channel channel = confirmingChannel();
          return new Sink.Lane() {
            @Override
            public void send(Outgoing m) throws IOException {
              channel.basicPublish(EXCHANGE, m.routingKey(), true, PROPERTIES, m.body());
            }

            @Override
            public void awaitAcknowledged() throws Exception {
              channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
            }

            @Override
            public void close() throws Exception {
              channel.close();
            }
          };
        });
  }

  private Channel confirmingChannel() throws IOException {
    Channel channel = connection.createChannel();
    channel.confirmSelect();
    channel.addReturnListener(r -> returned.incrementAndGet());
    return channel;
  }

  /** Messages the broker returned because no queue was bound for them. */
  @Override
  public int returned() {
    return returned.get();
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }
}
