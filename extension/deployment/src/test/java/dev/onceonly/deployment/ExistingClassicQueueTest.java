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
      new QuarkusUnitTest()
          .withApplicationRoot(
              jar -> jar.addClasses(BuildErrorsTest.First.class, BuildErrorsTest.Parcel.class))
          .overrideConfigKey("mp.messaging.incoming.parcels.connector", "smallrye-rabbitmq")
          .overrideConfigKey("mp.messaging.incoming.parcels.queue.name", QUEUE)
          .overrideConfigKey("rabbitmq-host", BROKER.get("rabbitmq-host"))
          .overrideConfigKey("rabbitmq-port", BROKER.get("rabbitmq-port"))
          .overrideConfigKey("rabbitmq-username", BROKER.get("rabbitmq-username"))
          .overrideConfigKey("rabbitmq-password", BROKER.get("rabbitmq-password"))
          .overrideConfigKey("rabbitmq-virtual-host", BROKER.get("rabbitmq-virtual-host"))
          .overrideConfigKey("quarkus.onceonly.migrate-at-start", "false")
          .overrideConfigKey("quarkus.devservices.enabled", "false")
          .overrideConfigKey("quarkus.http.test-port", "0")
          // Not reached: the queue check stops the start before any message needs the database.
          .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:postgresql://127.0.0.1:1/none")
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
