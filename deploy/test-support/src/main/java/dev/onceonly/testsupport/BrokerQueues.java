package dev.onceonly.testsupport;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * What a queue is, asked from the broker itself over AMQP, so that a test needs neither the
 * management plugin nor {@code rabbitmqctl} and works the same against a container.
 */
public final class BrokerQueues {

  private BrokerQueues() {}

  /** Whether {@code queue} exists (a passive declare). */
  public static boolean exists(ConnectionFactory factory, String queue) throws Exception {
    try (Connection connection = factory.newConnection("queue-exists-probe")) {
      connection.createChannel().queueDeclarePassive(queue);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * {@code quorum} or {@code classic}: a quorum queue refuses a consumer under a global prefetch
   * limit (RabbitMQ closes the connection that asked, so the question gets a connection of its
   * own); a classic queue takes it, and the consumer is cancelled at once (a message it may have
   * been handed goes back to the queue).
   */
  public static String typeOf(ConnectionFactory factory, String queue) throws Exception {
    try (Connection connection = factory.newConnection("queue-type-probe")) {
      Channel channel = connection.createChannel();
      channel.queueDeclarePassive(queue);
      channel.basicQos(0, 1, true);
      String tag = channel.basicConsume(queue, false, new DefaultConsumer(channel));
      channel.basicCancel(tag);
      return "classic";
    } catch (IOException | ShutdownSignalException e) {
      String why = String.valueOf(e.getMessage()) + " " + e.getCause();
      if (why.contains("does not support global qos")) {
        return "quorum";
      }
      throw e;
    }
  }

  /**
   * Declares {@code queue} again, durable, with exactly {@code arguments}: empty when the broker
   * accepts (the queue has exactly these), else its reason (e.g. {@code inequivalent arg
   * 'x-delivery-limit' ... current is the value '20'}).
   */
  public static Optional<String> redeclare(
      ConnectionFactory factory, String queue, Map<String, Object> arguments) throws Exception {
    try (Connection connection = factory.newConnection("queue-redeclare-probe")) {
      Channel channel = connection.createChannel();
      try {
        channel.queueDeclare(queue, true, false, false, arguments);
        return Optional.empty();
      } catch (IOException e) {
        if (e.getCause() instanceof ShutdownSignalException s
            && s.getReason() instanceof AMQP.Channel.Close close) {
          return Optional.of(close.getReplyText());
        }
        throw e;
      }
    }
  }
}
