package dev.onceonly.consumer;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.rabbitmq.client.GetResponse;
import dev.onceonly.internal.messaging.DeadLetters;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Replaying a dead-letter queue is safe: applied messages are duplicates, failed ones apply. */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class DeadLetterReplayTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final String DLQ = Queues.deadLetterQueue(ConsumerName.LOYALTY);

  @Inject Db db;
  @Inject MeterRegistry registry;

  private Broker broker;

  @BeforeEach
  void connect() throws Exception {
    broker = Broker.connect();
    broker.purge(DLQ);
  }

  @AfterEach
  void disconnect() throws Exception {
    broker.close();
  }

  @Test
  void transientFailureLandsInTheDeadLetterQueueAndItsReplayAppliesOnce() throws Exception {
    String customer = unique("c");
    OrderCompleted order = order(unique("o"), customer, 8_800);
    String trigger = "dlq_" + customer.replace('-', '_');
    db.execute(
        """
        CREATE FUNCTION loyalty.%1$s() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'database keeps failing' USING ERRCODE = '40001'; END $$;
        CREATE TRIGGER %1$s BEFORE INSERT ON loyalty.point_ledger FOR EACH ROW
          WHEN (NEW.customer_id = '%2$s') EXECUTE FUNCTION loyalty.%1$s();
        """
            .formatted(trigger, customer));
    try {
      broker.publish(order);
      broker.confirmAll();
      await().atMost(PATIENCE).until(() -> broker.depth(DLQ) == 1);
    } finally {
      db.execute(
          "DROP TRIGGER %1$s ON loyalty.point_ledger; DROP FUNCTION loyalty.%1$s();"
              .formatted(trigger));
    }
    GetResponse peek = broker.channel().basicGet(DLQ, false);
    assertThat(peek.getProps().getHeaders().get(DeadLetters.HEADER_FAILURE))
        .hasToString("transient");
    broker.channel().basicNack(peek.getEnvelope().getDeliveryTag(), false, true);
    assertThat(db.balance(customer)).isEqualTo(-1);

    Api.admin()
        .post("/dead-letters/{queue}/replay", DLQ)
        .then()
        .statusCode(200)
        .body("moved", equalTo(1))
        .body("messages[0].routingKey", equalTo("order.completed"));

    await().pollInSameThread().atMost(PATIENCE).until(() -> db.balance(customer) == 88);
    assertThat(broker.depth(DLQ)).isZero();
  }

  @Test
  void replayOfAnAlreadyAppliedMessageIsADuplicateWithoutASecondEffect() throws Exception {
    String customer = unique("c");
    OrderCompleted order = order(unique("o"), customer, 1_500);
    broker.publish(order);
    broker.confirmAll();
    await().pollInSameThread().atMost(PATIENCE).until(() -> db.balance(customer) == 15);
    double duplicatesBefore = duplicates();

    // The same message, dead-lettered as an operator would find it after an outage.
    var props =
        new com.rabbitmq.client.AMQP.BasicProperties.Builder()
            .contentType("application/json")
            .headers(
                java.util.Map.of(
                    DeadLetters.HEADER_ORIGINAL_EXCHANGE, "loyalty.events",
                    DeadLetters.HEADER_ORIGINAL_ROUTING_KEY, "order.completed",
                    DeadLetters.HEADER_FAILURE, "transient",
                    DeadLetters.HEADER_REASON, "connection lost"))
            .build();
    broker
        .channel()
        .basicPublish(
            Queues.DEAD_LETTER_EXCHANGE,
            Queues.queue(ConsumerName.LOYALTY),
            props,
            dev.onceonly.model.EventCodec.encode(order));
    broker.confirmAll();
    await().atMost(PATIENCE).until(() -> broker.depth(DLQ) == 1);

    Api.admin()
        .queryParam("limit", 10)
        .post("/dead-letters/loyalty/replay")
        .then()
        .statusCode(200)
        .body("moved", equalTo(1));

    await().atMost(PATIENCE).until(() -> duplicates() > duplicatesBefore);
    assertThat(db.balance(customer)).isEqualTo(15);
    assertThat(
            db.count("SELECT count(*) FROM loyalty.point_ledger WHERE customer_id = ?", customer))
        .isEqualTo(1);
  }

  @Test
  void replayGoesBackToItsOwnConsumerAloneWithItsRoutingKey() throws Exception {
    String customer = unique("c");
    OrderCompleted order = order(unique("o"), customer, 2_500);
    // Another team's queue on the same exchange and routing key: it must not get a copy.
    String foreign = "foreign-" + unique("q");
    broker.channel().queueDeclare(foreign, false, false, true, null);
    broker.channel().queueBind(foreign, "loyalty.events", "order.completed");
    try {
      deadLetter(order, "order.completed");

      Api.admin()
          .post("/dead-letters/loyalty/replay")
          .then()
          .statusCode(200)
          .body("moved", equalTo(1))
          .body("complete", equalTo(true))
          .body("messages[0].routingKey", equalTo("order.completed"));

      await().pollInSameThread().atMost(PATIENCE).until(() -> db.balance(customer) == 25);
      assertThat(broker.depth(foreign)).as("copies in another queue").isZero();
      assertThat(
              db.count(
                  "SELECT count(*) FROM onceonly.processed_messages WHERE consumer = 'receipts'"
                      + " AND message_key = ?",
                  order.messageKey()))
          .as("the receipts consumer never saw the loyalty consumer's replay")
          .isZero();
      assertThat(broker.depth(DLQ)).isZero();
    } finally {
      broker.channel().queueDelete(foreign);
    }
  }

  /** Puts {@code order} into the loyalty dead-letter queue as this service dead-letters. */
  private void deadLetter(OrderCompleted order, String routingKey) throws Exception {
    var props =
        new com.rabbitmq.client.AMQP.BasicProperties.Builder()
            .contentType("application/json")
            .headers(
                java.util.Map.of(
                    DeadLetters.HEADER_ORIGINAL_EXCHANGE, "loyalty.events",
                    DeadLetters.HEADER_ORIGINAL_ROUTING_KEY, routingKey,
                    DeadLetters.HEADER_FAILURE, "transient",
                    DeadLetters.HEADER_REASON, "connection lost"))
            .build();
    broker
        .channel()
        .basicPublish(
            Queues.DEAD_LETTER_EXCHANGE,
            Queues.queue(ConsumerName.LOYALTY),
            props,
            dev.onceonly.model.EventCodec.encode(order));
    broker.confirmAll();
    await().atMost(PATIENCE).until(() -> broker.depth(DLQ) == 1);
  }

  @Test
  void unknownQueueAndBadLimitAreRefused() {
    Api.admin()
        .post("/dead-letters/{queue}/replay", "orders")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("detail", containsString("unknown dead-letter queue 'orders'"));
    Api.admin()
        .queryParam("limit", 5000)
        .post("/dead-letters/loyalty/replay")
        .then()
        .statusCode(400)
        .body("detail", containsString("limit must be a whole number from 1 to 1000"));
  }

  private double duplicates() {
    return registry
        .get("onceonly.consumer.messages")
        .tag("consumer", "loyalty")
        .tag("outcome", "duplicate")
        .counter()
        .count();
  }
}
