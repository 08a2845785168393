package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
 * The packaged shipping service, run as a process, dies right after the transaction that shipped an
 * order committed and before the platform acked the message (the JVM halts, as kill -9 would end
 * it). The broker delivers the message again to the restarted service, and the claim makes it a
 * duplicate: one shipment, one label, the redelivery counted as a duplicate.
 */
class CrashBeforeAckIT {

  private static Backing backing;

  @BeforeAll
  static void services() {
    backing = new Backing("onceonly_shipping_crash_test");
  }

  @AfterAll
  static void stopServices() {
    backing.close();
  }

  @Test
  void aCrashBetweenCommitAndAckMakesTheRedeliveryADuplicate() throws Exception {
    String order = "crash-" + UUID.randomUUID().toString().substring(0, 8);
    Map<String, String> crashing = new HashMap<>(backing.env());
    crashing.put("SHIPPING_CRASH_AFTER_COMMIT_OF", order);
    ServiceProcess first =
        ServiceProcess.start("shipping-crashing", System.getProperty("shipping.jar"), crashing)
            .awaitReady();
    try (Shop shop = backing.shop()) {
      shop.publish("order-placed:" + order, Shop.json(order, "c-crash", 500, Instant.now()));
    }

    assertThat(first.process().waitFor(60, TimeUnit.SECONDS))
        .as("the service halts after commit")
        .isTrue();
    assertThat(first.process().exitValue()).isEqualTo(137);
    assertThat(backing.count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
        .as("the shipment committed")
        .isEqualTo(1);
    try (Shop shop = backing.shop()) {
      await().atMost(Duration.ofSeconds(30)).until(() -> shop.depth(Shop.QUEUE) == 1);
    }

    try (ServiceProcess second =
        ServiceProcess.start(
                "shipping-restarted", System.getProperty("shipping.jar"), backing.env())
            .awaitReady()) {
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> second.outcomes("shipping", "duplicate") >= 1);

      backing.assertShippedOnce(order);
      try (Shop shop = backing.shop()) {
        assertThat(shop.depth(Shop.QUEUE)).as("the redelivery was acked").isZero();
      }
    }
  }
}
