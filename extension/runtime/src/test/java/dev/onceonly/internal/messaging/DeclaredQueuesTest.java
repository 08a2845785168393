package dev.onceonly.internal.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.internal.catalog.Specs;
import dev.onceonly.internal.config.OnceOnlyConfig.QueueType;
import dev.onceonly.internal.config.OnceOnlyConfig.Queues;
import dev.onceonly.internal.messaging.DeclaredQueues.DeclaredQueue;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** The queues a consumer's channel declares, with the arguments the connector gives them. */
class DeclaredQueuesTest {

  /** The channel settings the extension gives a consumer's channel by default. */
  private static final Map<String, String> DEFAULTS =
      Map.of(
          "mp.messaging.incoming.loyalty.auto-bind-dlq", "true",
          "mp.messaging.incoming.loyalty.dead-letter-exchange", "onceonly.dlx",
          "mp.messaging.incoming.loyalty.queue.name", "onceonly.loyalty",
          "mp.messaging.incoming.loyalty.queue.arguments", QueueArguments.CONSUMER_QUEUE,
          "mp.messaging.incoming.loyalty.dead-letter-queue.arguments",
              QueueArguments.DEAD_LETTER_QUEUE);

  @Test
  void quorumByDefaultWithTheDeliveryLimitOnTheConsumerQueueOnly() {
    List<DeclaredQueue> declared = declared(Map.of(), Specs.queues(QueueType.QUORUM, 20));

    assertThat(declared)
        .containsExactly(
            new DeclaredQueue(
                "onceonly.loyalty",
                Map.of(
                    "x-queue-type", "quorum",
                    "x-delivery-limit", 20,
                    "x-dead-letter-exchange", "onceonly.dlx",
                    "x-dead-letter-routing-key", "onceonly.loyalty"),
                false),
            new DeclaredQueue("onceonly.loyalty.dlq", Map.of("x-queue-type", "quorum"), true));
  }

  @Test
  void classicQueuesGetNoArgumentOfThePlatform() {
    List<DeclaredQueue> declared = declared(Map.of(), Specs.queues(QueueType.CLASSIC, 20));

    assertThat(declared)
        .containsExactly(
            new DeclaredQueue(
                "onceonly.loyalty",
                Map.of(
                    "x-dead-letter-exchange", "onceonly.dlx",
                    "x-dead-letter-routing-key", "onceonly.loyalty"),
                false),
            new DeclaredQueue("onceonly.loyalty.dlq", Map.of(), true));
  }

  @Test
  void theChannelsOwnAttributesWinOverTheArgumentsBeanAsInTheConnector() {
    List<DeclaredQueue> declared =
        declared(
            Map.of(
                "mp.messaging.incoming.loyalty.queue.x-delivery-limit", "5",
                "mp.messaging.connector.smallrye-rabbitmq.queue.ttl", "60000",
                "mp.messaging.incoming.loyalty.dead-letter-queue-name", "loyalty.dead",
                "mp.messaging.incoming.loyalty.dead-letter-queue-type", "classic"),
            Specs.queues(QueueType.QUORUM, 20));

    assertThat(declared.get(0).arguments())
        .containsEntry("x-delivery-limit", 5L)
        .containsEntry("x-message-ttl", 60000L);
    assertThat(declared.get(1))
        .isEqualTo(new DeclaredQueue("loyalty.dead", Map.of("x-queue-type", "classic"), true));
  }

  @Test
  void aChannelThatDeclaresNothingHasNothingToCheck() {
    List<DeclaredQueue> declared =
        declared(
            Map.of(
                "mp.messaging.incoming.loyalty.queue.declare", "false",
                "mp.messaging.incoming.loyalty.auto-bind-dlq", "false"),
            Specs.queues(QueueType.QUORUM, 20));

    assertThat(declared).isEmpty();
  }

  private static List<DeclaredQueue> declared(Map<String, String> settings, Queues queues) {
    Map<String, String> all = new HashMap<>(DEFAULTS);
    all.putAll(settings);
    Config config =
        new SmallRyeConfigBuilder()
            .withSources(new PropertiesConfigSource(all, "test", 250))
            .build();
    Map<String, Map<String, ?>> beans =
        Map.of(
            QueueArguments.CONSUMER_QUEUE, QueueArguments.consumerQueue(queues),
            QueueArguments.DEAD_LETTER_QUEUE, QueueArguments.deadLetterQueue(queues));
    return DeclaredQueues.of(Specs.consumer("loyalty"), config, beans::get);
  }
}
