package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.testsupport.KafkaBroker;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged shipping service, the same jar as CrashBeforeAckIT's, switched to Kafka by its
 * environment alone ({@code ORDERS_CONNECTOR=smallrye-kafka}), dies right after the transaction
 * that shipped an order committed and before the record was acked, so before its offset could be
 * committed (the JVM halts, as kill -9 would end it). Restarted, it reads the record again from the
 * group's last committed offset, and the claim makes it a duplicate: one shipment, one label.
 */
class CrashBeforeCommitKafkaIT {

  private static final String TOPIC = "shop.orders.crash-it";
  private static final String GROUP = "shipping.shipping";

  private static Backing backing;
  private static KafkaBroker broker;

  @BeforeAll
  static void services() {
    backing = new Backing("onceonly_shipping_kafka_crash_test");
    broker = KafkaBroker.shared();
  }

  @AfterAll
  static void stopServices() {
    backing.close();
  }

  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>(backing.env());
    env.put("ORDERS_CONNECTOR", "smallrye-kafka");
    env.put("ORDERS_TOPIC", TOPIC);
    env.put("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
    return env;
  }

  @Test
  void aCrashBetweenCommitAndOffsetCommitMakesTheReReadADuplicate() throws Exception {
    String order = "kcrash-" + UUID.randomUUID().toString().substring(0, 8);
    Map<String, String> crashing = env();
    crashing.put("SHIPPING_CRASH_AFTER_COMMIT_OF", order);
    ServiceProcess first =
        ServiceProcess.start(
                "shipping-kafka-crashing", System.getProperty("shipping.jar"), crashing)
            .awaitReady();
    try (KafkaShop shop = new KafkaShop(broker.bootstrapServers())) {
      shop.publish(
          TOPIC, "order-placed:" + order, order, Shop.json(order, "c-crash", 500, Instant.now()));

      assertThat(first.process().waitFor(60, TimeUnit.SECONDS))
          .as("the service halts after commit")
          .isTrue();
      assertThat(first.process().exitValue()).isEqualTo(137);
      assertThat(backing.count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
          .as("the shipment committed")
          .isEqualTo(1);
      assertThat(shop.uncommitted(GROUP, TOPIC))
          .as("the record's offset was not committed")
          .isEqualTo(1);

      try (ServiceProcess second =
          ServiceProcess.start(
                  "shipping-kafka-restarted", System.getProperty("shipping.jar"), env())
              .awaitReady()) {
        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> second.outcomes("shipping", "duplicate") >= 1);
        backing.assertShippedOnce(order);
        await()
            .atMost(Duration.ofSeconds(30))
            .alias("the re-read record's offset committed")
            .until(() -> shop.uncommitted(GROUP, TOPIC) == 0);
      }
    }
  }
}
