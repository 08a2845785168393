package dev.onceonly.relay.dispatch;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.completion.Completer;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.Configs;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Call;
import io.opentelemetry.api.OpenTelemetry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A row whose destination this relay is not configured for is not burned: it waits with its
 * attempts untouched while later rows of other destinations go, it is counted (per destination, in
 * the metric the alert watches, and in {@code /outbox/stats}), and a relay configured with its
 * destination delivers it.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class UnknownDestinationTest {

  private static final String NOWHERE = "nowhere";

  @Inject OutboxRepository repository;
  @Inject Completer completer;
  @Inject RelayMetrics metrics;
  @Inject Vertx vertx;

  @TestHTTPResource(value = "/", management = true)
  URL management;

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void aRowOfAnUnknownDestinationWaitsIsCountedAndGoesOnceARelayKnowsIt() {
    String prefix = OutboxRows.uniquePrefix("unknown");
    long waiting = OutboxRows.insert(new NewRow(NOWHERE, "{\"n\":1}", prefix + "row", null));
    long later = OutboxRows.insert(OutboxRows.receipt(prefix + "receipt"));

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(later).equals("delivered"));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                metric()
                    .contains(
                        "onceonly_relay_unknown_destination_rows{destination=\"nowhere\"} 1.0"));
    assertThat(OutboxRows.status(waiting)).isEqualTo("pending");
    assertThat(OutboxRows.row(waiting).attempts()).as("no attempt spent").isZero();
    JsonPath stats = Api.viewer().get("/outbox/stats").then().statusCode(200).extract().jsonPath();
    assertThat(stats.getBoolean("byDestination.nowhere.configured")).isFalse();
    assertThat(stats.getLong("byDestination.nowhere.backlog")).isEqualTo(1);
    assertThat(stats.getString("byDestination.nowhere.breaker")).isEqualTo("unknown");
    assertThat(stats.getBoolean("byDestination.send_receipt.configured")).isTrue();

    // Another relay, configured with the destination (as a new deployment would be).
    int port = Integer.getInteger(ProviderStub.PORT_PROPERTY);
    Destinations withIt =
        new Destinations(
            Configs.fromProperties(
                Map.of(
                    "relay.destinations.\"nowhere\".http.url",
                    "http://127.0.0.1:" + port + "/v1/nowhere")),
            vertx);
    Poller knowing =
        new Poller(
            "relay-knowing",
            new PollerSettings(
                10, Duration.ofSeconds(20), Duration.ofMillis(200), Duration.ZERO, true),
            withIt.all(),
            repository,
            new Dispatcher(withIt, metrics, new DeliveryTracing(OpenTelemetry.noop(), true)),
            completer);
    knowing.start();
    try {
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(10))
          .until(() -> OutboxRows.status(waiting).equals("delivered"));
    } finally {
      knowing.stop(Duration.ofSeconds(2));
    }
    assertThat(stub.calls(prefix + "row")).extracting(Call::path).containsExactly("/v1/nowhere");
    assertThat(OutboxRows.row(waiting).attempts()).isEqualTo(1);
  }

  private String metric() {
    return given().baseUri(management.toString()).get("metrics").asString();
  }
}
