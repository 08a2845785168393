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
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * {@code quarkus.onceonly.queues.type=classic} keeps classic queues, declared with no argument of
 * the platform's but the dead-letter exchange, as before quorum became the default (on a queue of
 * its own, beside the quorum one of the other tests).
 */
@QuarkusTest
@TestProfile(ClassicQueuesTest.Classic.class)
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_shipping_test"))
@QuarkusTestResource(RabbitMqResource.class)
class ClassicQueuesTest {

  static final String QUEUE = "shipping.orders.classic";

  /** Classic queues, on a queue name of their own. */
  public static class Classic implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "quarkus.onceonly.queues.type",
          "classic",
          "mp.messaging.incoming.orders.queue.name",
          QUEUE);
    }
  }

  @Test
  void classicQueuesWithoutADeliveryLimit() throws Exception {
    ConnectionFactory broker = QuorumQueuesTest.broker(ConfigProvider.getConfig());
    await().atMost(Duration.ofSeconds(30)).until(() -> BrokerQueues.exists(broker, QUEUE + ".dlq"));

    assertThat(BrokerQueues.typeOf(broker, QUEUE)).isEqualTo("classic");
    assertThat(BrokerQueues.typeOf(broker, QUEUE + ".dlq")).isEqualTo("classic");
    assertThat(
            BrokerQueues.redeclare(
                broker,
                QUEUE,
                Map.of(
                    "x-dead-letter-exchange", "onceonly.dlx", "x-dead-letter-routing-key", QUEUE)))
        .as("no x-queue-type, no x-delivery-limit")
        .isEmpty();
    assertThat(BrokerQueues.redeclare(broker, QUEUE + ".dlq", Map.of())).isEmpty();
  }
}
