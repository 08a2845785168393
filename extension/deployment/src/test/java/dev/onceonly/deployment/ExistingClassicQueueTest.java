package dev.onceonly.deployment;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.QuarkusUnitTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A consumer queue ({@link BuildErrorsTest.First}'s) left as a classic queue by an earlier version
 * stops a service configured for quorum queues (the default) at start, with an error naming the
 * queue, both types and the move, instead of a service that looks started and consumes nothing.
 */
class ExistingClassicQueueTest {

  private static final String QUEUE = "onceonly.classic-left-" + UUID.randomUUID();
  private static final Map<String, String> BROKER = brokerWithClassicQueue();

  @RegisterExtension
  static final QuarkusUnitTest APP =
      ParcelsOnRabbitMq.service(BROKER, QUEUE)
          // The queue check stops the start before any message needs the database.
          .assertException(
              BuildErrorsTest.message(
                  "RabbitMQ queue '"
                      + QUEUE
                      + "' is a classic queue, but quarkus.onceonly.queues.type is quorum"));

  /** The broker, with the consumer's queue declared classic as OnceOnly 0.x declared it. */
  private static Map<String, String> brokerWithClassicQueue() {
    Map<String, String> broker = new RabbitMqResource().start();
    try (Connection connection = RabbitMqResource.connectionFactory(broker).newConnection();
        Channel channel = connection.createChannel()) {
      channel.queueDeclare(
          QUEUE,
          true,
          false,
          false,
          Map.of("x-dead-letter-exchange", "onceonly.dlx", "x-dead-letter-routing-key", QUEUE));
    } catch (Exception e) {
      throw new IllegalStateException("cannot declare the classic queue for the test", e);
    }
    return broker;
  }

  @Test
  void theStartFailsSayingWhatToDo() {
    // The assertion is the start's exception, above.
  }
}
