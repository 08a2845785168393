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
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class HealthAndMetricsTest {

  /**
   * The management interface ({@code http://host:port/q/}): health and metrics, apart from the API.
   */
  @TestHTTPResource(value = "/", management = true)
  URL management;

  private RequestSpecification onManagementPort() {
    return given().baseUri(management.toString());
  }

  @Test
  void healthAndMetricsAreNotServedOnTheApiPort() {
    Api.admin().get("/q/health/ready").then().statusCode(404);
    Api.admin().get("/q/metrics").then().statusCode(404);
  }

  @Test
  void readinessIncludesTheOutboxSchemaAndTheDatabase() {
    onManagementPort()
        .get("health/ready")
        .then()
        .statusCode(200)
        .body("status", is("UP"))
        .body("checks.name", hasItem("outbox-schema"))
        .body("checks.name", hasItem("Database connections health check"));
  }

  @Test
  void livenessReportsThePollerHeartbeat() {
    onManagementPort()
        .get("health/live")
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

    // The relay counts an outcome after the completion commits, which may be just after the row
    // reads as delivered: the scrape waits for the counters too.
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                onManagementPort()
                    .get("metrics")
                    .then()
                    .statusCode(200)
                    .body(containsString("onceonly_relay_pending "))
                    .body(containsString("onceonly_relay_oldest_pending_age_seconds "))
                    .body(
                        containsString(
                            "onceonly_relay_attempts_total{destination=\"send_receipt\""))
                    .body(
                        containsString(
                            "onceonly_relay_deliveries_total{destination=\"send_receipt\",outcome=\"delivered\""))
                    .body(
                        containsString(
                            "onceonly_relay_delivery_latency_seconds{destination=\"send_receipt\",quantile=\"0.99\"")));
  }

  @Test
  void everyConfiguredDestinationHasItsGaugesFromTheStart() {
    String metrics = onManagementPort().get("metrics").asString();

    for (String destination : OutboxTestResource.DESTINATIONS) {
      assertThat(metrics)
          .contains("onceonly_relay_breaker_open{destination=\"" + destination + "\"}")
          .contains("onceonly_relay_destination_pending{destination=\"" + destination + "\"}")
          .contains(
              "onceonly_relay_destination_oldest_pending_age_seconds{destination=\""
                  + destination
                  + "\"}")
          .contains(
              "onceonly_relay_unknown_destination_rows{destination=\"" + destination + "\"} 0.0");
    }
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
    assertThat(onManagementPort().get("metrics").asString())
        .contains("onceonly_relay_retention_deleted_total{status=\"delivered\"}");
  }

  private double metric(String series) {
    return onManagementPort()
        .get("metrics")
        .asString()
        .lines()
        .filter(line -> line.startsWith(series + " "))
        .mapToDouble(line -> Double.parseDouble(line.substring(series.length() + 1).trim()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no metric " + series));
  }
}
