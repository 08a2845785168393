package dev.onceonly.consumer.kafka;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.profile;
import static dev.onceonly.consumer.TestEvents.redemption;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Db;
import dev.onceonly.consumer.TestEvents;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.RewardRedeemed;
import dev.onceonly.testsupport.KafkaTopics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The loyalty example on Kafka by configuration only (docs/kafka.md): the handlers and decoders
 * that run on RabbitMQ read a topic per event type, apply each event once whatever copies come
 * again, commit every record's offset once decided, and send a malformed record to the consumer's
 * dead-letter topic with its reason.
 */
@QuarkusTest
@TestProfile(KafkaTransport.class)
class KafkaTransportTest {

  private static final Duration PATIENCE = Duration.ofSeconds(90);

  /** Each consumer group and the topics it reads. */
  private static final Map<String, List<String>> GROUPS =
      Map.of(
          "consumer-service.loyalty", List.of("order.completed", "reward.redeemed"),
          "consumer-service.receipts", List.of("order.completed"),
          "consumer-service.profiles", List.of("customer.profile-changed"));

  @Inject Db db;
  @Inject MeterRegistry registry;
  @Inject ConsumerCatalog catalog;

  private KafkaTopics kafka;

  @BeforeEach
  void connect() {
    kafka =
        new KafkaTopics(
            ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
  }

  @AfterEach
  void disconnect() {
    kafka.close();
  }

  @Test
  void theThreeConsumersReadTheirTopicsAndDeadLetterToTopicsOfTheirOwn() {
    for (ConsumerName name : ConsumerName.values()) {
      ConsumerSpec consumer = catalog.get(name.value());
      assertThat(consumer.kafka()).as(name.value()).isTrue();
      assertThat(consumer.deadLetterQueue()).isEqualTo("onceonly." + name.value() + ".dlt");
    }
    assertThat(catalog.get("loyalty").queue()).isEqualTo("order.completed,reward.redeemed");
    assertThat(catalog.get("receipts").queue()).isEqualTo("order.completed");
    assertThat(catalog.get("profiles").queue()).isEqualTo("customer.profile-changed");
  }

  @Test
  void eachConsumerAppliesAnEventOnceWhenItsRecordComesTwice() throws Exception {
    String customer = unique("kc");
    OrderCompleted order = order(unique("ko"), customer, 4_200);
    double loyaltyDuplicates = duplicates(ConsumerName.LOYALTY);
    double receiptsDuplicates = duplicates(ConsumerName.RECEIPTS);
    double profilesDuplicates = duplicates(ConsumerName.PROFILES);
    for (int copy = 0; copy < 2; copy++) {
      publish(order);
      publish(profile(customer, 2, "gold"));
    }
    await().pollInSameThread().atMost(PATIENCE).until(() -> db.balance(customer) == 42);

    RewardRedeemed redeemed = redemption(unique("kr"), customer, 10);
    publish(redeemed);
    publish(redeemed);
    await().pollInSameThread().atMost(PATIENCE).until(() -> db.balance(customer) == 32);
    await()
        .pollInSameThread()
        .atMost(PATIENCE)
        .alias("every copy decided a duplicate")
        .until(
            () ->
                duplicates(ConsumerName.LOYALTY) - loyaltyDuplicates == 2
                    && duplicates(ConsumerName.RECEIPTS) - receiptsDuplicates == 1
                    && duplicates(ConsumerName.PROFILES) - profilesDuplicates == 1);

    assertThat(claims("loyalty", order.messageKey())).isEqualTo(1);
    assertThat(claims("receipts", order.messageKey())).isEqualTo(1);
    assertThat(claims("loyalty", redeemed.messageKey())).isEqualTo(1);
    assertThat(
            db.count("SELECT count(*) FROM loyalty.point_ledger WHERE customer_id = ?", customer))
        .as("one credit, one debit")
        .isEqualTo(2);
    assertThat(outbox("send_receipt", order.messageKey())).isEqualTo(1);
    assertThat(outbox("issue_payout", redeemed.messageKey())).isEqualTo(1);
    assertThat(
            db.string(
                "SELECT version || ':' || tier FROM loyalty.customer_profiles"
                    + " WHERE customer_id = ?",
                customer))
        .isEqualTo("2:gold");
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .alias("every record's offset committed once decided, by each consumer group")
        .until(this::uncommitted, behind -> behind == 0);
  }

  @Test
  void aMalformedRecordGoesToTheConsumersDeadLetterTopicWithItsReason() throws Exception {
    String marker = unique("bad");
    kafka.publish("order.completed", "order-completed:" + marker, marker, "{not json " + marker);
    String negative = unique("neg");
    OrderCompleted order = order(negative, unique("kc"), 100);
    kafka.publish(
        "order.completed",
        order.messageKey(),
        order.customerId(),
        TestEvents.json(order).replace("\"totalCents\":100", "\"totalCents\":-5"));
    String profileMarker = unique("badprofile");
    kafka.publish(
        "customer.profile-changed",
        "customer-profile-changed:" + profileMarker,
        profileMarker,
        "{\"customerId\": \"" + profileMarker + "\", \"version\": \"new\"}");

    for (String consumer : List.of("loyalty", "receipts")) {
      ConsumerRecord<byte[], byte[]> bad = awaitDeadLetter(consumer, marker);
      assertThat(KafkaTopics.header(bad, "x-onceonly-failure")).isEqualTo("invalid");
      assertThat(KafkaTopics.header(bad, "x-onceonly-reason")).contains("not valid JSON");
      assertThat(KafkaTopics.header(bad, "x-onceonly-consumer")).isEqualTo(consumer);
      assertThat(KafkaTopics.header(bad, "dead-letter-topic")).isEqualTo("order.completed");
      assertThat(KafkaTopics.header(bad, "message-id")).isEqualTo("order-completed:" + marker);
      assertThat(KafkaTopics.header(awaitDeadLetter(consumer, negative), "x-onceonly-reason"))
          .contains("negative amount in field 'totalCents'");
    }
    ConsumerRecord<byte[], byte[]> badProfile = awaitDeadLetter("profiles", profileMarker);
    assertThat(KafkaTopics.header(badProfile, "x-onceonly-failure")).isEqualTo("invalid");
    assertThat(KafkaTopics.header(badProfile, "x-onceonly-reason")).isNotBlank();
    assertThat(KafkaTopics.header(badProfile, "dead-letter-topic"))
        .isEqualTo("customer.profile-changed");

    assertThat(claims("loyalty", order.messageKey())).isZero();
    assertThat(claims("receipts", order.messageKey())).isZero();
    await()
        .atMost(PATIENCE)
        .ignoreExceptions()
        .alias("the dead-lettered records are committed: never read again")
        .until(this::uncommitted, behind -> behind == 0);
    assertThat(
            kafka.readAll("onceonly.loyalty.dlt", Duration.ofSeconds(3)).stream()
                .filter(r -> body(r).contains(marker))
                .count())
        .as("dead-lettered once, not retried in a loop")
        .isEqualTo(1);
  }

  private void publish(LoyaltyEvent event) throws Exception {
    kafka.publish(
        event.type().routingKey(), event.messageKey(), event.customerId(), TestEvents.json(event));
  }

  private ConsumerRecord<byte[], byte[]> awaitDeadLetter(String consumer, String marker) {
    return await()
        .atMost(PATIENCE)
        .until(
            () ->
                kafka.readAll("onceonly." + consumer + ".dlt", Duration.ofSeconds(2)).stream()
                    .filter(r -> body(r).contains(marker))
                    .findFirst()
                    .orElse(null),
            r -> r != null);
  }

  private long uncommitted() throws Exception {
    long behind = 0;
    for (Map.Entry<String, List<String>> group : GROUPS.entrySet()) {
      for (String topic : group.getValue()) {
        behind += kafka.uncommitted(group.getKey(), topic);
      }
    }
    return behind;
  }

  private double duplicates(ConsumerName consumer) {
    Counter counter =
        registry
            .find("onceonly.consumer.messages")
            .tag("consumer", consumer.value())
            .tag("outcome", "duplicate")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private long claims(String consumer, String key) {
    return db.count(
        "SELECT count(*) FROM onceonly.processed_messages WHERE consumer = ? AND message_key = ?",
        consumer,
        key);
  }

  private long outbox(String kind, String sourceKey) {
    return db.count(
        "SELECT count(*) FROM outbox.outbox WHERE kind = ? AND source_message_key = ?",
        kind,
        sourceKey);
  }

  private static String body(ConsumerRecord<byte[], byte[]> record) {
    return new String(record.value(), StandardCharsets.UTF_8);
  }
}
