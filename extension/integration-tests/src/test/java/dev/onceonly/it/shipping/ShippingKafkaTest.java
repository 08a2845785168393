package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.testsupport.KafkaResource;
import dev.onceonly.testsupport.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shipping service's handler on a Kafka topic of three partitions, against a real broker
 * (deploy/kafka-broker) and PostgreSQL: each key applied once whatever is published twice, offsets
 * committed once applied, undecodable records in the dead-letter topic with their reason, and a
 * rebalance in the middle of the stream that neither loses nor doubles an effect.
 */
@QuarkusTest
@TestProfile(KafkaOrders.class)
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_shipping_kafka_test"))
@QuarkusTestResource(
    value = KafkaResource.class,
    initArgs = {
      @ResourceArg(name = "shared", value = "false"),
      @ResourceArg(name = "partitions", value = "3")
    })
class ShippingKafkaTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Instant OCCURRED = Instant.now();

  @Inject AgroalDataSource db;

  private KafkaShop shop;

  @BeforeEach
  void connect() {
    shop = new KafkaShop(bootstrap());
  }

  @AfterEach
  void disconnect() {
    shop.close();
  }

  @Test
  void everyKeyAppliesOnceWithEveryRecordPublishedTwiceAndTheOffsetsAreCommitted()
      throws Exception {
    String batch = ShippingTest.unique("k");
    double duplicatesBefore = ShippingTest.outcomes("duplicate");
    List<String> orders = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      orders.add(batch + "-" + i);
    }
    for (int copy = 0; copy < 2; copy++) {
      for (String order : orders) {
        // keyed by order: both copies of one order land in the same partition, like a producer
        // retry; the customer spreads them over three customers' locks
        publish(order, "c-" + (order.hashCode() & 3), order);
      }
    }

    await().atMost(WAIT).pollInSameThread().until(() -> shipments(batch) == orders.size());
    await()
        .atMost(WAIT)
        .until(() -> ShippingTest.outcomes("duplicate") - duplicatesBefore >= orders.size());
    await()
        .atMost(WAIT)
        .alias("every record's offset committed once applied")
        .until(() -> shop.uncommitted(KafkaOrders.GROUP, KafkaOrders.TOPIC) == 0);

    assertThat(shipments(batch)).isEqualTo(orders.size());
    assertThat(
            count(
                "SELECT count(*) FROM outbox.outbox WHERE kind = 'create-label'"
                    + " AND payload->>'orderId' LIKE ?",
                batch + "-%"))
        .as("one label per order")
        .isEqualTo(orders.size());
    assertThat(
            count(
                "SELECT count(*) FROM onceonly.processed_messages"
                    + " WHERE consumer = 'shipping' AND message_key LIKE ?",
                "order-placed:" + batch + "-%"))
        .as("claimed by the producer's id, never by partition and offset")
        .isEqualTo(orders.size());
  }

  @Test
  void anUndecodableRecordGoesToTheDeadLetterTopicWithItsReasonOnce() throws Exception {
    String marker = ShippingTest.unique("bad");
    shop.publish(
        KafkaOrders.TOPIC,
        "order-placed:" + marker,
        marker,
        "{\"orderId\": \"" + marker + "\", \"weightGrams\": \"heavy\"}");
    String missingKey = ShippingTest.unique("o");
    shop.publish(
        KafkaOrders.TOPIC, null, missingKey, Shop.json(missingKey, "c-3", 100, Instant.now()));

    ConsumerRecord<byte[], byte[]> bad = awaitDeadLetter(marker);
    assertThat(KafkaShop.header(bad, "x-onceonly-failure")).isEqualTo("invalid");
    assertThat(KafkaShop.header(bad, "x-onceonly-reason")).contains("OrderPlaced");
    assertThat(KafkaShop.header(bad, "x-onceonly-consumer")).isEqualTo("shipping");
    assertThat(KafkaShop.header(bad, "dead-letter-topic")).isEqualTo(KafkaOrders.TOPIC);
    assertThat(KafkaShop.header(bad, "message-id"))
        .as("the original's headers travel with it")
        .isEqualTo("order-placed:" + marker);
    assertThat(new String(bad.value(), StandardCharsets.UTF_8)).contains("\"heavy\"");

    ConsumerRecord<byte[], byte[]> keyless = awaitDeadLetter(missingKey);
    assertThat(KafkaShop.header(keyless, "x-onceonly-reason"))
        .isEqualTo("no message key: the message has no message-id");
    assertThat(shipments(missingKey)).isZero();

    await()
        .atMost(WAIT)
        .alias("the dead-lettered records are committed: never read again")
        .until(() -> shop.uncommitted(KafkaOrders.GROUP, KafkaOrders.TOPIC) == 0);
    assertThat(
            shop.readAll(KafkaOrders.DEAD_LETTERS, Duration.ofSeconds(3)).stream()
                .filter(r -> new String(r.value(), StandardCharsets.UTF_8).contains(marker))
                .count())
        .as("dead-lettered once, not retried in a loop")
        .isEqualTo(1);
  }

  /**
   * Another member joins the service's consumer group while orders flow: partitions move away from
   * the service with records in hand, the intruder reads records and leaves without committing (as
   * a member that crashed), and the partitions come back. Every order is shipped once.
   */
  @Test
  void aRebalanceInTheMiddleOfTheStreamNeitherLosesNorDoublesAnEffect() throws Exception {
    String batch = ShippingTest.unique("r");
    int total = 200;
    for (int i = 0; i < total / 2; i++) {
      publish(batch + "-" + i, "c-" + (i % 5), batch + "-" + i);
    }
    int taken = 0;
    try (KafkaConsumer<byte[], byte[]> intruder = intruder()) {
      intruder.subscribe(List.of(KafkaOrders.TOPIC));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (intruder.assignment().isEmpty() && System.nanoTime() < deadline) {
        taken += intruder.poll(Duration.ofMillis(200)).count();
      }
      assertThat(intruder.assignment())
          .as("the intruder took partitions from the service")
          .isNotEmpty();
      for (int i = total / 2; i < total; i++) {
        publish(batch + "-" + i, "c-" + (i % 5), batch + "-" + i);
      }
      while (taken == 0 && System.nanoTime() < deadline) {
        taken += intruder.poll(Duration.ofMillis(200)).count();
      }
    }
    assertThat(taken).as("the intruder got partitions and read records").isPositive();

    await().atMost(WAIT).pollInSameThread().until(() -> shipments(batch) == total);
    await().atMost(WAIT).until(() -> shop.uncommitted(KafkaOrders.GROUP, KafkaOrders.TOPIC) == 0);
    assertThat(shipments(batch)).isEqualTo(total);
    assertThat(
            count(
                "SELECT count(*) FROM outbox.outbox WHERE kind = 'create-label'"
                    + " AND payload->>'orderId' LIKE ?",
                batch + "-%"))
        .isEqualTo(total);
  }

  /**
   * The Kafka client's lag per partition, labelled with the consumer group (the client id), for the
   * alert and the dashboard (docs/kafka.md). Micrometer registers a partition's meters when it next
   * looks at the client's metrics, once a minute: it may take that long.
   */
  @Test
  void theLagIsExportedPerConsumerGroupTopicAndPartition() throws Exception {
    String order = ShippingTest.unique("lag");
    publish(order, "c-lag", order);
    String lag =
        await()
            .atMost(Duration.ofSeconds(150))
            .until(
                () ->
                    ShippingTest.metrics()
                        .lines()
                        .filter(l -> l.startsWith("kafka_consumer_fetch_manager_records_lag{"))
                        .filter(l -> l.contains("topic=\"" + KafkaOrders.TOPIC + "\""))
                        .findFirst()
                        .orElse(null),
                l -> l != null);
    assertThat(lag).contains("client_id=\"" + KafkaOrders.GROUP).contains("partition=\"");
  }

  /** A member of the service's own consumer group that never commits. */
  private KafkaConsumer<byte[], byte[]> intruder() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, KafkaOrders.GROUP);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    return new KafkaConsumer<>(p);
  }

  /** Publishes one order, its body the same for every copy (a copy, not a conflict). */
  private void publish(String order, String customer, String recordKey) throws Exception {
    shop.publish(
        KafkaOrders.TOPIC,
        "order-placed:" + order,
        recordKey,
        Shop.json(order, customer, 1_000, OCCURRED));
  }

  private ConsumerRecord<byte[], byte[]> awaitDeadLetter(String marker) {
    return await()
        .atMost(WAIT)
        .until(
            () ->
                shop.readAll(KafkaOrders.DEAD_LETTERS, Duration.ofSeconds(2)).stream()
                    .filter(r -> new String(r.value(), StandardCharsets.UTF_8).contains(marker))
                    .findFirst()
                    .orElse(null),
            r -> r != null);
  }

  private long shipments(String prefix) throws Exception {
    return count("SELECT count(*) FROM shipping.shipments WHERE order_id LIKE ?", prefix + "%");
  }

  private long count(String sql, Object... params) throws Exception {
    try (Connection c = db.getConnection()) {
      return Sql.count(c, sql, params);
    }
  }

  private static String bootstrap() {
    return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
  }
}
