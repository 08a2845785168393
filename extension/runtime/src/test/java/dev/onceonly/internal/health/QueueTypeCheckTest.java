package dev.onceonly.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.internal.catalog.Specs;
import dev.onceonly.internal.config.OnceOnlyConfig.QueueType;
import dev.onceonly.internal.messaging.DeclaredQueues.DeclaredQueue;
import dev.onceonly.internal.messaging.QueueArguments;
import dev.onceonly.testsupport.BrokerQueues;
import dev.onceonly.testsupport.RabbitMqResource;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The start check against a real broker: a queue that exists with another type than configured, or
 * with other arguments, stops the start with an error that says what to do; a matching queue or a
 * missing one passes, and a missing one is left to the connector to declare.
 */
class QueueTypeCheckTest {

  private static final RabbitMqResource RABBIT = new RabbitMqResource();
  private static ConnectionFactory factory;
  private static Connection connection;

  @BeforeAll
  static void broker() throws Exception {
    Map<String, String> config = RABBIT.start();
    factory = RabbitMqResource.connectionFactory(config);
    connection = factory.newConnection("queue-type-check-test");
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
    RABBIT.stop();
  }

  @Test
  void aClassicQueueLeftByAnEarlierVersionStopsAQuorumStartSayingWhatToDo() throws Exception {
    DeclaredQueue queue = consumerQueue(unique("classic"), QueueType.QUORUM, 20);
    declare(consumerQueue(queue.name(), QueueType.CLASSIC, 20));

    assertThatThrownBy(() -> QueueTypeCheck.require(factory, List.of(queue), QueueType.QUORUM))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "RabbitMQ queue '"
                + queue.name()
                + "' is a classic queue, but quarkus.onceonly.queues.type is quorum")
        .hasMessageContaining("docs/rabbitmq.md")
        .hasMessageContaining("drain it and delete it")
        .hasMessageContaining("shovel")
        .hasMessageContaining("quarkus.onceonly.queues.type=classic");
    assertThat(typeOf(queue.name())).as("the queue is left as it was").isEqualTo("classic");
  }

  @Test
  void aQuorumQueueStopsAClassicStartTheSameWay() throws Exception {
    DeclaredQueue queue = deadLetterQueue(unique("quorum"), QueueType.CLASSIC);
    declare(deadLetterQueue(queue.name(), QueueType.QUORUM));

    assertThatThrownBy(() -> QueueTypeCheck.require(factory, List.of(queue), QueueType.CLASSIC))
        .hasMessageContaining(
            "RabbitMQ dead-letter queue '"
                + queue.name()
                + "' is a quorum queue, but quarkus.onceonly.queues.type is classic")
        .hasMessageContaining("quarkus.onceonly.queues.type=quorum");
  }

  @Test
  void aChangedDeliveryLimitIsNamedWithTheBrokersWords() throws Exception {
    DeclaredQueue queue = consumerQueue(unique("limit"), QueueType.QUORUM, 5);
    declare(consumerQueue(queue.name(), QueueType.QUORUM, 20));

    assertThatThrownBy(() -> QueueTypeCheck.require(factory, List.of(queue), QueueType.QUORUM))
        .hasMessageContaining(
            "RabbitMQ queue '" + queue.name() + "' exists with other arguments than this service")
        .hasMessageContaining("x-delivery-limit")
        .hasMessageContaining("quarkus.onceonly.queues.delivery-limit");
  }

  @Test
  void everyQueueInTheWrongIsNamedAtOnce() throws Exception {
    DeclaredQueue first = consumerQueue(unique("first"), QueueType.QUORUM, 20);
    DeclaredQueue second = deadLetterQueue(unique("second"), QueueType.QUORUM);
    declare(consumerQueue(first.name(), QueueType.CLASSIC, 20));
    declare(deadLetterQueue(second.name(), QueueType.CLASSIC));

    assertThatThrownBy(
            () -> QueueTypeCheck.require(factory, List.of(first, second), QueueType.QUORUM))
        .hasMessageContaining("'" + first.name() + "' is a classic queue")
        .hasMessageContaining("'" + second.name() + "' is a classic queue");
  }

  @Test
  void matchingQueuesPassAndMissingOnesAreLeftToTheConnector() throws Exception {
    DeclaredQueue quorum = consumerQueue(unique("same"), QueueType.QUORUM, 20);
    DeclaredQueue classic = consumerQueue(unique("same-classic"), QueueType.CLASSIC, 20);
    DeclaredQueue missing = consumerQueue(unique("missing"), QueueType.QUORUM, 20);
    declare(quorum);
    declare(classic);

    assertThatCode(
            () -> {
              QueueTypeCheck.require(factory, List.of(quorum, missing), QueueType.QUORUM);
              QueueTypeCheck.require(factory, List.of(classic), QueueType.CLASSIC);
            })
        .doesNotThrowAnyException();
    assertThat(typeOf(quorum.name())).isEqualTo("quorum");
    assertThat(typeOf(classic.name())).isEqualTo("classic");
    assertThat(exists(missing.name())).as("the check declares nothing new").isFalse();
  }

  /** A consumer queue as the platform declares it with {@code type}. */
  private static DeclaredQueue consumerQueue(String name, QueueType type, int deliveryLimit) {
    Map<String, Object> args =
        new HashMap<>(QueueArguments.consumerQueue(Specs.queues(type, deliveryLimit)));
    args.put("x-dead-letter-exchange", "onceonly.dlx");
    args.put("x-dead-letter-routing-key", name);
    return new DeclaredQueue(name, args, false);
  }

  private static DeclaredQueue deadLetterQueue(String name, QueueType type) {
    return new DeclaredQueue(name, QueueArguments.deadLetterQueue(Specs.queues(type, 20)), true);
  }

  private static void declare(DeclaredQueue queue) throws Exception {
    try (Channel channel = connection.createChannel()) {
      channel.queueDeclare(queue.name(), true, false, false, queue.arguments());
    }
  }

  private static String typeOf(String queue) throws Exception {
    return BrokerQueues.typeOf(factory, queue);
  }

  private static boolean exists(String queue) throws Exception {
    try (Channel channel = connection.createChannel()) {
      channel.queueDeclarePassive(queue);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String unique(String name) {
    return "onceonly.queue-check-" + name + "-" + UUID.randomUUID();
  }
}
