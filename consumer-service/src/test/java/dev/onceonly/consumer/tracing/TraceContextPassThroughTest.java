package dev.onceonly.consumer.tracing;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import dev.onceonly.consumer.Broker;
import dev.onceonly.consumer.Db;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.EventType;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With tracing off (the default) no span is made, but the producer's trace context is not lost: the
 * outbox row carries it unchanged, for the relay to pass on to the provider.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class TraceContextPassThroughTest {

  @Inject Db db;

  @Test
  void theProducersTraceContextReachesTheOutboxRowUnchanged() throws Exception {
    String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    OrderCompleted order = order(unique("o"), unique("c"), 2_000);
    try (Broker broker = Broker.connect()) {
      AMQP.BasicProperties props =
          new AMQP.BasicProperties.Builder()
              .contentType("application/json")
              .headers(Map.of("traceparent", traceparent))
              .build();
      broker
          .channel()
          .basicPublish(
              EventType.EXCHANGE, order.type().routingKey(), props, EventCodec.encode(order));
      broker.confirmAll();
    }

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                db.count(
                        "SELECT count(*) FROM outbox.outbox WHERE source_message_key = ?",
                        order.messageKey())
                    == 1);
    assertThat(
            db.string(
                "SELECT trace_parent FROM outbox.outbox WHERE source_message_key = ?",
                order.messageKey()))
        .isEqualTo(traceparent);
  }
}
