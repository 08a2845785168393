package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.testsupport.BrokerQueues;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * With no setting of its own, a service on the extension declares its consumer queue as a quorum
 * queue with a delivery limit of 20, and the dead-letter queue as a quorum queue without one, as
 * the broker itself reports them.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_shipping_test"))
@QuarkusTestResource(RabbitMqResource.class)
class QuorumQueuesTest {

  @Test
  void theConsumerQueueIsQuorumWithTheDeliveryLimitAndItsDeadLettersQuorumWithout()
      throws Exception {
    ConnectionFactory broker = broker(ConfigProvider.getConfig());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> BrokerQueues.exists(broker, Shop.DEAD_LETTERS));
    Map<String, Object> consumerQueue =
        Map.of(
            "x-queue-type",
            "quorum",
            "x-delivery-limit",
            20,
            "x-dead-letter-exchange",
            "onceonly.dlx",
            "x-dead-letter-routing-key",
            Shop.QUEUE);

    assertThat(BrokerQueues.typeOf(broker, Shop.QUEUE)).isEqualTo("quorum");
    assertThat(BrokerQueues.typeOf(broker, Shop.DEAD_LETTERS)).isEqualTo("quorum");
    // RabbitMQ accepts a redeclare only with the queue's very arguments.
    assertThat(BrokerQueues.redeclare(broker, Shop.QUEUE, consumerQueue)).isEmpty();
    assertThat(
            BrokerQueues.redeclare(broker, Shop.QUEUE, with(consumerQueue, "x-delivery-limit", 21)))
        .hasValueSatisfying(
            refusal ->
                assertThat(refusal)
                    .contains("inequivalent arg 'x-delivery-limit'")
                    .containsPattern("current is (the value )?'20'"));
    assertThat(BrokerQueues.redeclare(broker, Shop.DEAD_LETTERS, Map.of("x-queue-type", "quorum")))
        .as("no delivery limit on the dead letters: nothing may drop them")
        .isEmpty();
  }

  static ConnectionFactory broker(Config config) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(config.getValue("rabbitmq-host", String.class));
    factory.setPort(config.getValue("rabbitmq-port", Integer.class));
    factory.setVirtualHost(config.getValue("rabbitmq-virtual-host", String.class));
    return factory;
  }

  private static Map<String, Object> with(Map<String, Object> map, String key, Object value) {
    Map<String, Object> copy = new java.util.HashMap<>(map);
    copy.put(key, value);
    return copy;
  }
}
