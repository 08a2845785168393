package dev.onceonly.relay.destination.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onceonly.relay.support.Broker;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Attempt;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.RelayRabbitResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The relay publishing outbox rows to RabbitMQ (destination {@code events}, {@link
 * RelayRabbitResource}): a plain AMQP consumer sees each row as one persistent JSON message whose
 * {@code message-id} is the row's idempotency key, with its trace context; an unroutable message is
 * a failed attempt, never a silent drop.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = RelayRabbitResource.class, restrictToAnnotatedClass = true)
class RabbitMqDestinationTest {

  private static final String TRACE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  @Test
  void aRowIsOneConfirmedMessageWithItsKeyAsMessageIdAndItsTraceContext() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    try (Broker broker = Broker.connect()) {
      String queue = broker.queue("test." + run + ".#");
      String key = OutboxRows.uniquePrefix("published") + "order";
      long id = insert(key, "{\"run\":\"" + run + "\",\"kind\":\"order\",\"orderId\":\"o-1\"}");

      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(20))
          .until(() -> OutboxRows.status(id).equals("delivered"));

      List<GetResponse> messages = broker.drain(queue);
      assertThat(messages).hasSize(1);
      GetResponse message = messages.get(0);
      assertThat(message.getEnvelope().getExchange()).isEqualTo(RelayRabbitResource.EXCHANGE);
      assertThat(message.getEnvelope().getRoutingKey()).isEqualTo("test." + run + ".order");
      assertThat(message.getProps().getMessageId()).isEqualTo(key);
      assertThat(message.getProps().getContentType()).isEqualTo("application/json");
      assertThat(message.getProps().getDeliveryMode()).as("persistent").isEqualTo(2);
      assertThat(String.valueOf(message.getProps().getHeaders().get("traceparent")))
          .isEqualTo(TRACE);
      assertThat(new String(message.getBody(), StandardCharsets.UTF_8))
          .isEqualTo(OutboxRows.payload(id));
      assertThat(OutboxRows.attempts(id)).extracting(Attempt::outcome).containsExactly("delivered");
    }
  }

  @Test
  void anUnroutableMessageIsAFailedAttemptAndGoesOnceAQueueTakesIt() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    try (Broker broker = Broker.connect()) {
      String key = OutboxRows.uniquePrefix("unroutable") + "order";
      long id = insert(key, "{\"run\":\"" + run + "\",\"kind\":\"order\"}");

      List<Attempt> returned =
          await()
              .pollInSameThread()
              .atMost(Duration.ofSeconds(20))
              .until(() -> OutboxRows.attempts(id), attempts -> attempts.size() >= 2);
      assertThat(returned)
          .allSatisfy(
              a -> {
                assertThat(a.outcome()).isEqualTo("retry");
                assertThat(a.error())
                    .startsWith("returned by the broker: 312 NO_ROUTE")
                    .contains("routing key 'test." + run + ".order'");
              });
      assertThat(OutboxRows.status(id)).isIn("pending", "in_flight");

      String queue = broker.queue("test." + run + ".#");
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(20))
          .until(() -> OutboxRows.status(id).equals("delivered"));

      List<GetResponse> messages = new ArrayList<>(broker.drain(queue));
      assertThat(messages).hasSize(1);
      assertThat(messages.get(0).getProps().getMessageId()).isEqualTo(key);
    }
  }

  private static long insert(String key, String payload) {
    return OutboxRows.longs(
            """
            INSERT INTO outbox.outbox (kind, payload, idempotency_key, trace_parent)
            VALUES (?, ?::jsonb, ?, ?) RETURNING id
            """,
            RelayRabbitResource.DESTINATION,
            payload,
            key,
            TRACE)
        .get(0);
  }
}
