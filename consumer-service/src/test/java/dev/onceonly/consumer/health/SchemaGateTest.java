package dev.onceonly.consumer.health;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import dev.onceonly.consumer.Broker;
import dev.onceonly.consumer.Db;
import dev.onceonly.internal.schema.PlatformMigrations;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * A consumer started before its schema (DB_MIGRATE=false, an empty database, as a Deployment whose
 * migrations Job has not run yet) takes no message: it is live, not ready, says which migrations
 * are pending, and handles what waited once the migrations ran.
 */
@QuarkusTest
@TestProfile(SchemaGateTest.MigrationsLeftToTheJob.class)
class SchemaGateTest {

  /** DB_MIGRATE=false on a database of its own, dropped before the start. */
  public static class MigrationsLeftToTheJob implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of("DB_MIGRATE", "false");
    }

    @Override
    public List<TestResourceEntry> testResources() {
      return List.of(
          new TestResourceEntry(
              PostgresResource.class,
              Map.of("database", "onceonly_consumer_schemagate_test", "fresh", "true")),
          new TestResourceEntry(RabbitMqResource.class));
    }

    @Override
    public boolean disableGlobalTestResources() {
      return true;
    }
  }

  @Inject Flyway loyalty;

  @Inject PlatformMigrations platform;

  @Inject MeterRegistry registry;
  @Inject Db db;

  @TestHTTPResource(value = "/", management = true)
  URL management;

  @Test
  void noMessageIsHandledBeforeEveryHistoryIsMigrated() throws Exception {
    // The gate's first look runs on its own thread just after the start; until then readiness
    // is DOWN with "not checked yet".
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(
            () ->
                given()
                    .baseUri(management.toString())
                    .get("health/ready")
                    .then()
                    .statusCode(503)
                    .body(
                        containsString("loyalty: pending V1"),
                        containsString("onceonly: pending V1"),
                        containsString("outbox: pending V1")));
    given().baseUri(management.toString()).get("health/live").then().statusCode(200);

    OrderCompleted waiting = order(unique("gate"), unique("gate-c"), 4_200);
    try (Broker broker = Broker.connect()) {
      broker.publish(waiting);
      broker.confirmAll();
    }
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(10))
        .until(() -> decided() == 0 && !gateOpen());

    loyalty.migrate();
    assertThat(gateOpen()).as("platform and outbox histories still missing").isFalse();
    platform.histories().get("onceonly").migrate();
    assertThat(gateOpen()).as("outbox history still missing").isFalse();
    platform.histories().get("outbox").migrate();

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                db.count(
                        "SELECT count(*) FROM loyalty.point_ledger WHERE order_id = ?",
                        waiting.orderId())
                    == 1);
    await().atMost(Duration.ofSeconds(30)).until(() -> decided() == 2);
    assertThat(count("loyalty", "applied")).isEqualTo(1);
    assertThat(count("receipts", "applied")).isEqualTo(1);
    assertThat(count("loyalty", "dead_lettered") + count("receipts", "dead_lettered")).isZero();
    given().baseUri(management.toString()).get("health/ready").then().statusCode(200);
  }

  private boolean gateOpen() {
    return given().baseUri(management.toString()).get("health/ready").statusCode() == 200;
  }

  /** Messages decided in any way (every outcome, dead letters and requeues included). */
  private double decided() {
    return registry.find("onceonly.consumer.messages").counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private double count(String consumer, String outcome) {
    Counter counter =
        registry
            .find("onceonly.consumer.messages")
            .tags("consumer", consumer, "outcome", outcome)
            .counter();
    return counter == null ? 0 : counter.count();
  }
}
