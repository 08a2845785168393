package dev.onceonly.consumer;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import dev.onceonly.internal.processing.Verdict;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A consumer that commits and dies before its ack: the broker redelivers, and the redelivery is a
 * duplicate. The broker side is real (a delivery taken without ack, the channel closed); the
 * handling is the service's own processor.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class CrashBeforeAckTest {

  @Inject Processing processor;
  @Inject Db db;

  @Test
  void redeliveryAfterCommitWithoutAckIsADuplicate() throws Exception {
    String customer = unique("c");
    OrderCompleted order = order(unique("o"), customer, 4_200);
    String queue = unique("crash-test");
    try (Broker broker = Broker.connect()) {
      broker.channel().queueDeclare(queue, false, false, true, null);
      broker
          .channel()
          .basicPublish(
              "",
              queue,
              new AMQP.BasicProperties.Builder().contentType("application/json").build(),
              EventCodec.encode(order));
      broker.confirmAll();

      Channel crashing = broker.channel().getConnection().createChannel();
      GetResponse first = crashing.basicGet(queue, false);
      assertThat(first.getEnvelope().isRedeliver()).isFalse();
      assertThat(handle(first)).isEqualTo(Verdict.APPLIED);
      crashing.close(); // committed, never acked: the broker takes the delivery back

      GetResponse again = broker.channel().basicGet(queue, false);
      assertThat(again).as("the unacked delivery comes back").isNotNull();
      assertThat(again.getEnvelope().isRedeliver()).isTrue();
      assertThat(handle(again)).isEqualTo(Verdict.DUPLICATE);
      broker.channel().basicAck(again.getEnvelope().getDeliveryTag(), false);
      assertThat(broker.depth(queue)).isZero();
    }
    assertThat(db.balance(customer)).isEqualTo(42);
  }

  private Verdict handle(GetResponse delivery) throws Exception {
    var decoded = EventCodec.decode("order.completed", delivery.getBody());
    return processor.process(
        ConsumerName.LOYALTY, decoded, new String(delivery.getBody(), StandardCharsets.UTF_8));
  }
}
