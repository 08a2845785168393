package dev.onceonly.consumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.internal.messaging.BrokerConnections;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.EventType;
import dev.onceonly.model.LoyaltyEvent;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.ConfigProvider;

/** A raw AMQP client for tests: publishes as a producer would and inspects queues. */
public final class Broker implements AutoCloseable {

  private final Connection connection;
  private final Channel channel;

  private Broker(Connection connection) throws IOException {
    this.connection = connection;
    this.channel = connection.createChannel();
    channel.confirmSelect();
  }

  /** Connects with the same settings (TLS included) the service under test uses. */
  public static Broker connect() {
    ConnectionFactory factory = BrokerConnections.factory(ConfigProvider.getConfig());
    try {
      return new Broker(factory.newConnection("consumer-service-tests"));
    } catch (IOException | TimeoutException e) {
      throw new IllegalStateException("cannot reach RabbitMQ for the test", e);
    }
  }

  public Channel channel() {
    return channel;
  }

  public void publish(LoyaltyEvent event) throws IOException {
    publish(event.type().routingKey(), EventCodec.encode(event));
  }

  public void publish(String routingKey, byte[] body) throws IOException {
    AMQP.BasicProperties props =
        new AMQP.BasicProperties.Builder().contentType("application/json").deliveryMode(2).build();
    channel.basicPublish(EventType.EXCHANGE, routingKey, props, body);
  }

  public void confirmAll() throws IOException, InterruptedException, TimeoutException {
    channel.waitForConfirmsOrDie(30_000);
  }

  public long depth(String queue) throws IOException {
    return channel.queueDeclarePassive(queue).getMessageCount();
  }

  public void purge(String queue) throws IOException {
    channel.queuePurge(queue);
  }

  @Override
  public void close() throws IOException, TimeoutException {
    connection.close();
  }
}
