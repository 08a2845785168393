package dev.onceonly.consumer;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onceonly.internal.intake.RabbitAcks;
import dev.onceonly.internal.messaging.DeadLetters;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The whole consumer through a real RabbitMQ: redeliveries, poison messages, business rules. */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class BrokerFlowTest {

  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @Inject Db db;
  @Inject DeadLetters deadLetters;
  @Inject RabbitAcks rabbitAcks;
  @Inject MeterRegistry registry;

  private Broker broker;

  @BeforeEach
  void connect() throws Exception {
    broker = Broker.connect();
    for (ConsumerName consumer : ConsumerName.values()) {
      broker.purge(Queues.deadLetterQueue(consumer));
    }
  }

  @AfterEach
  void disconnect() throws Exception {
    broker.close();
  }

  @Test
  void everyOrderAppliesOnceWhateverTheRedeliveries() throws Exception {
    String run = unique("bulk");
    int orders = 1_000;
    Random random = new Random(42);
    List<OrderCompleted> publications = new ArrayList<>();
    for (int i = 0; i < orders; i++) {
      OrderCompleted order = order(run + "-o" + i, run + "-c" + (i % 37), 100 + i);
      int copies = 1 + random.nextInt(3);
      for (int copy = 0; copy < copies; copy++) {
        publications.add(order);
      }
    }
    Collections.shuffle(publications, random);
    for (OrderCompleted order : publications) {
      broker.publish(order);
    }
    broker.confirmAll();

    String like = run + "-%";
    awaitClaims("order-completed:" + like, 2L * orders);
    assertThat(db.count("SELECT count(*) FROM loyalty.point_ledger WHERE order_id LIKE ?", like))
        .isEqualTo(orders);
    assertThat(
            db.count(
                "SELECT count(*) FROM outbox.outbox WHERE kind = 'send_receipt'"
                    + " AND source_message_key LIKE ?",
                "order-completed:" + like))
        .isEqualTo(orders);
    assertThat(
            db.count(
                """
                SELECT count(*) FROM loyalty.balances b
                 WHERE b.customer_id LIKE ?
                   AND b.points <> (SELECT sum(l.points) FROM loyalty.point_ledger l
                                     WHERE l.customer_id = b.customer_id)
                """,
                like))
        .isZero();
    assertThat(db.count("SELECT count(*) FROM loyalty.balances WHERE customer_id LIKE ?", like))
        .isEqualTo(37);
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                broker.depth(Queues.queue(ConsumerName.LOYALTY)) == 0
                    && broker.depth(Queues.queue(ConsumerName.RECEIPTS)) == 0);
    for (ConsumerName consumer : ConsumerName.values()) {
      assertThat(broker.depth(Queues.deadLetterQueue(consumer))).isZero();
    }
  }

  @Test
  void committedMessagesShareTheirAcksAndNoneIsLeftUnacked() throws Exception {
    double loyaltyBefore = acks(ConsumerName.LOYALTY);
    double receiptsBefore = acks(ConsumerName.RECEIPTS);
    String run = unique("acks");
    int orders = 600;
    for (int i = 0; i < orders; i++) {
      broker.publish(order(run + "-o" + i, run + "-c" + (i % 13), 100));
    }
    broker.confirmAll();

    awaitClaims("order-completed:" + run + "-%", 2L * orders);
    await()
        .atMost(PATIENCE)
        .until(
            () ->
                rabbitAcks.unsettled(ConsumerName.LOYALTY.value()) == 0
                    && rabbitAcks.unsettled(ConsumerName.RECEIPTS.value()) == 0);
    double loyaltyAcks = acks(ConsumerName.LOYALTY) - loyaltyBefore;
    double receiptsAcks = acks(ConsumerName.RECEIPTS) - receiptsBefore;
    assertThat(loyaltyAcks)
        .as("acks for %d messages on loyalty", orders)
        .isPositive()
        .isLessThan(orders / 2.0);
    assertThat(receiptsAcks)
        .as("acks for %d messages on receipts", orders)
        .isPositive()
        .isLessThan(orders / 2.0);
  }

  /** Waits until {@code count} claims have a message key LIKE {@code keys} (a key: itself). */
  private void awaitClaims(String keys, long count) {
    await()
        .pollInSameThread()
        .atMost(PATIENCE)
        .until(
            () ->
                db.count(
                        "SELECT count(*) FROM onceonly.processed_messages WHERE message_key LIKE ?",
                        keys)
                    == count);
  }

  private double acks(ConsumerName consumer) {
    return registry.counter("onceonly.consumer.acks", "consumer", consumer.value()).count();
  }

  @Test
  void deadLettersKeepTheirReasonAfterTheirConnectionDrops() throws Exception {
    // order.completed reaches two consumers: both dead-letter each bad body.
    List<String> dlqs =
        List.of(
            Queues.deadLetterQueue(ConsumerName.LOYALTY),
            Queues.deadLetterQueue(ConsumerName.RECEIPTS));
    broker.publish("order.completed", "{first".getBytes(StandardCharsets.UTF_8));
    broker.confirmAll();
    for (String dlq : dlqs) {
      await().atMost(PATIENCE).until(() -> broker.depth(dlq) == 1);
    }

    deadLetters.abortConnection();
    broker.publish("order.completed", "{second".getBytes(StandardCharsets.UTF_8));
    broker.confirmAll();
    for (String dlq : dlqs) {
      await().atMost(PATIENCE).until(() -> broker.depth(dlq) == 2);
      for (int i = 0; i < 2; i++) {
        GetResponse dead = broker.channel().basicGet(dlq, true);
        // Rejected to the queue's own dead-letter exchange instead, it would carry no reason.
        assertThat(dead.getProps().getHeaders())
            .as("dead letter %d in %s", i + 1, dlq)
            .containsKey(DeadLetters.HEADER_REASON);
        assertThat(dead.getProps().getHeaders().get(DeadLetters.HEADER_REASON).toString())
            .contains("not valid JSON");
      }
    }
  }

  @Test
  void poisonMessageIsDeadLetteredWithItsReasonAndLeavesNoClaim() throws Exception {
    broker.publish("order.completed", "{not json".getBytes(StandardCharsets.UTF_8));
    String orderId = unique("neg");
    String negative =
        new String(TestEvents.json(order(orderId, unique("c"), 100)))
            .replace("\"totalCents\":100", "\"totalCents\":-5");
    broker.publish("order.completed", negative.getBytes(StandardCharsets.UTF_8));
    broker.confirmAll();

    String dlq = Queues.deadLetterQueue(ConsumerName.LOYALTY);
    await().atMost(PATIENCE).until(() -> broker.depth(dlq) == 2);
    List<String> reasons = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      GetResponse dead = broker.channel().basicGet(dlq, true);
      assertThat(dead.getProps().getHeaders().get(DeadLetters.HEADER_ORIGINAL_ROUTING_KEY))
          .hasToString("order.completed");
      assertThat(dead.getProps().getHeaders().get(DeadLetters.HEADER_FAILURE).toString())
          .isEqualTo("invalid");
      reasons.add(dead.getProps().getHeaders().get(DeadLetters.HEADER_REASON).toString());
    }
    assertThat(reasons)
        .anySatisfy(r -> assertThat(r).contains("not valid JSON"))
        .anySatisfy(r -> assertThat(r).contains("negative amount in field 'totalCents'"));
    assertThat(
            db.count(
                "SELECT count(*) FROM onceonly.processed_messages WHERE message_key = ?",
                "order-completed:" + orderId))
        .isZero();
    await()
        .atMost(PATIENCE)
        .until(() -> broker.depth(Queues.deadLetterQueue(ConsumerName.RECEIPTS)) == 2);
    assertThat(broker.depth(Queues.queue(ConsumerName.LOYALTY))).isZero();
  }

  @Test
  void poisonBeyondThePrefetchIsAckedAndHealthyMessagesGoOn() throws Exception {
    // More invalid messages than a channel may hold unacked (CONSUMER_PREFETCH, 128): had one
    // original stayed unacked once its dead letter was confirmed, each queue would stall before the
    // order published after them.
    int poison = 300;
    for (int i = 0; i < poison; i++) {
      broker.publish("order.completed", ("{poison " + i).getBytes(StandardCharsets.UTF_8));
    }
    String orderId = unique("after-poison");
    broker.publish(order(orderId, unique("c"), 100));
    broker.confirmAll();

    awaitClaims("order-completed:" + orderId, 2);
    for (ConsumerName consumer : List.of(ConsumerName.LOYALTY, ConsumerName.RECEIPTS)) {
      await()
          .atMost(PATIENCE)
          .until(() -> broker.depth(Queues.deadLetterQueue(consumer)) == poison);
      assertThat(broker.depth(Queues.queue(consumer))).isZero();
    }
  }

  @Test
  void redemptionBeyondTheBalanceIsRejectedAndVisible() throws Exception {
    String customer = unique("c");
    broker.publish(order(unique("o"), customer, 5_000));
    broker.confirmAll();
    await().pollInSameThread().atMost(PATIENCE).until(() -> db.balance(customer) == 50);

    var tooMuch = TestEvents.redemption(unique("r"), customer, 80);
    var covered = TestEvents.redemption(unique("r"), customer, 30);
    broker.publish(tooMuch);
    broker.publish(covered);
    broker.confirmAll();

    await()
        .pollInSameThread()
        .atMost(PATIENCE)
        .until(
            () ->
                db.count(
                        "SELECT count(*) FROM onceonly.processed_messages WHERE message_key IN (?, ?)",
                        tooMuch.messageKey(),
                        covered.messageKey())
                    == 2);
    assertThat(db.balance(customer)).isEqualTo(20);
    assertThat(
            db.string(
                "SELECT reason FROM onceonly.rejections WHERE message_key = ?",
                tooMuch.messageKey()))
        .isEqualTo("insufficient_balance");
    assertThat(
            db.count(
                "SELECT count(*) FROM outbox.outbox WHERE kind = 'issue_payout'"
                    + " AND source_message_key IN (?, ?)",
                tooMuch.messageKey(),
                covered.messageKey()))
        .isEqualTo(1);
    assertThat(
            db.count(
                "SELECT sum(points) FROM loyalty.point_ledger WHERE customer_id = ?", customer))
        .isEqualTo(20);
  }

  @Test
  void outOfOrderProfileVersionsEndAtTheHighest() throws Exception {
    String customer = unique("c");
    for (long version : new long[] {3, 1, 2, 3}) {
      broker.publish(TestEvents.profile(customer, version, "tier-" + version));
    }
    broker.confirmAll();

    await()
        .pollInSameThread()
        .atMost(PATIENCE)
        .until(
            () ->
                "tier-3"
                    .equals(
                        db.string(
                            "SELECT tier FROM loyalty.customer_profiles WHERE customer_id = ?",
                            customer)));
    await().atMost(PATIENCE).until(() -> broker.depth(Queues.queue(ConsumerName.PROFILES)) == 0);
    assertThat(
            db.count(
                "SELECT version FROM loyalty.customer_profiles WHERE customer_id = ?", customer))
        .isEqualTo(3);
  }
}
