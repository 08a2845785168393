package dev.onceonly.relay;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class HealthAndMetricsTest {

  @Test
  void readinessIncludesTheOutboxSchemaAndTheDatabase() {
    given()
        .get("/q/health/ready")
        .then()
        .statusCode(200)
        .body("status", is("UP"))
        .body("checks.name", hasItem("outbox-schema"))
        .body("checks.name", hasItem("Database connections health check"));
  }

  @Test
  void livenessReportsThePollerHeartbeat() {
    given()
        .get("/q/health/live")
        .then()
        .statusCode(200)
        .body("status", is("UP"))
        .body("checks.find { it.name == 'outbox-poller' }.data.relayId", is("relay-main"));
  }

  @Test
  void deliveriesShowInPrometheusMetrics() {
    ProviderStub.get();
    long id = OutboxRows.insert(OutboxRows.receipt(OutboxRows.uniquePrefix("metrics") + "r"));
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(id).equals("delivered"));

    given()
        .get("/q/metrics")
        .then()
        .statusCode(200)
        .body(containsString("onceonly_relay_pending "))
        .body(containsString("onceonly_relay_oldest_pending_age_seconds "))
        .body(containsString("onceonly_relay_attempts_total{kind=\"send_receipt\""))
        .body(
            containsString(
                "onceonly_relay_deliveries_total{kind=\"send_receipt\",outcome=\"delivered\""))
        .body(
            containsString(
                "onceonly_relay_delivery_latency_seconds{kind=\"send_receipt\",quantile=\"0.99\""));
  }

  @Test
  void operatorChangesAreCountedPerAction() {
    String series = "onceonly_relay_operator_actions_total{action=\"cancel\"}";
    double before = metric(series);
    long id =
        OutboxRows.insertAs(
            OutboxRows.receipt(OutboxRows.uniquePrefix("metrics-cancel") + "r"), "dead");

    Api.admin().post("/outbox/" + id + "/cancel").then().statusCode(200);

    assertThat(metric(series)).isEqualTo(before + 1);
    assertThat(given().get("/q/metrics").asString())
        .contains("onceonly_relay_retention_deleted_total{status=\"delivered\"}");
  }

  private static double metric(String series) {
    return given()
        .get("/q/metrics")
        .asString()
        .lines()
        .filter(line -> line.startsWith(series + " "))
        .mapToDouble(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + series));
  }
}
