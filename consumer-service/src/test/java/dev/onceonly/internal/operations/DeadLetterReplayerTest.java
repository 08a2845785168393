package dev.onceonly.internal.operations;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import dev.onceonly.consumer.Broker;
import dev.onceonly.internal.messaging.DeadLetters;
import dev.onceonly.model.EventCodec;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A replay never drops a message the broker cannot route: it stays in its dead-letter queue. */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class DeadLetterReplayerTest {

  @Inject DeadLetterReplayer replayer;

  @Test
  void aMessageNobodyCanTakeStaysInTheDeadLetterQueue() throws Exception {
    String dlq = "scratch-dlq-" + unique("q");
    try (Broker broker = Broker.connect()) {
      broker.channel().queueDeclare(dlq, false, false, false, null);
      try {
        for (int i = 0; i < 2; i++) {
          AMQP.BasicProperties props =
              new AMQP.BasicProperties.Builder()
                  .headers(Map.of(DeadLetters.HEADER_ORIGINAL_ROUTING_KEY, "order.completed"))
                  .build();
          broker
              .channel()
              .basicPublish(
                  "", dlq, props, EventCodec.encode(order(unique("o"), unique("c"), 100)));
        }
        broker.confirmAll();

        // Nothing is bound to the replay exchange for this name: the broker returns the message.
        DeadLetterReplayer.Report report =
            replayer.replay(dlq, "nobody-" + unique("consumer"), null, 10);

        assertThat(report.moved()).isZero();
        assertThat(report.complete()).isFalse();
        assertThat(report.problem()).contains("could not route").contains("NO_ROUTE");
        assertThat(broker.depth(dlq)).as("both still dead-lettered").isEqualTo(2);
      } finally {
        broker.channel().queueDelete(dlq);
      }
    }
  }
}
