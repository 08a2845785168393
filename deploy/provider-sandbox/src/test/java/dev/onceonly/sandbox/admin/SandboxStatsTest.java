package dev.onceonly.sandbox.admin;

import static dev.onceonly.sandbox.SandboxClient.effect;
import static dev.onceonly.sandbox.SandboxClient.faults;
import static dev.onceonly.sandbox.SandboxClient.post;
import static dev.onceonly.sandbox.SandboxClient.resetAll;
import static dev.onceonly.sandbox.SandboxClient.stats;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SandboxStatsTest {

  @BeforeEach
  void clean() {
    resetAll();
  }

  @Test
  void statsCountRawEffectiveReplayedRefusedAndRetriedCalls() {
    faults("{\"script\":{\"a\":[\"500\",\"429\"]}}");
    post("receipts", "a", "{\"n\":1}"); // injected 500
    post("receipts", "a", "{\"n\":1}"); // injected 429
    post("receipts", "a", "{\"n\":1}"); // effect
    post("receipts", "a", "{\"n\":1}"); // replay
    post("receipts", "a", "{\"n\":2}"); // 422
    post("receipts", "b", "{\"n\":1}"); // effect
    post("receipts", "", "{\"n\":1}"); // 400

    JsonPath receipts = stats("receipts");
    assertThat(receipts.getLong("rawCalls")).isEqualTo(7);
    assertThat(receipts.getLong("effectiveCalls")).isEqualTo(2);
    assertThat(receipts.getLong("replays")).isEqualTo(1);
    assertThat(receipts.getLong("refusals")).isEqualTo(2);
    assertThat(receipts.getLong("refusalsByStatus.'422'")).isEqualTo(1);
    assertThat(receipts.getLong("refusalsByStatus.'400'")).isEqualTo(1);
    assertThat(receipts.getLong("injectedFaults.error")).isEqualTo(1);
    assertThat(receipts.getLong("injectedFaults.throttle")).isEqualTo(1);
    assertThat(receipts.getInt("maxCallsForOneKey")).isEqualTo(5);
    assertThat(receipts.getLong("keysCalledMoreThanOnce")).isEqualTo(1);
    assertThat(receipts.getLong("outcomes.created")).isEqualTo(2);
    assertThat(stats("payouts").getLong("rawCalls")).isZero();
  }

  @Test
  void callLogShowsEveryCallWithAKeyEvenWithoutEffect() {
    faults("{\"script\":{\"k\":[\"502\",\"502\"]}}");
    post("payouts", "k", "{}");
    post("payouts", "k", "{}");

    given()
        .get("/sandbox/calls/payouts/k")
        .then()
        .statusCode(200)
        .body("calls", equalTo(2))
        .body("lastOutcome", equalTo("fault-502"))
        .body("effectId", equalTo(null));
    given().get("/sandbox/calls/payouts/never").then().statusCode(404);
  }

  @Test
  void theTraceparentOfEveryCallIsRecordedInOrder() {
    String first = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    String second = "00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01";
    faults("{\"script\":{\"traced\":[\"503\"]}}");
    for (String traceparent : new String[] {first, second}) {
      given()
          .header("Idempotency-Key", "traced")
          .header("traceparent", traceparent)
          .contentType("application/json")
          .body("{}")
          .post("/v1/receipts");
    }
    post("receipts", "traced", "{}");

    given()
        .get("/sandbox/calls/receipts/traced")
        .then()
        .statusCode(200)
        .body("calls", equalTo(3))
        .body("traceparents", contains(first, second, null));
  }

  @Test
  void effectsAreListedInTheOrderTheyWereTaken() {
    post("payouts", "first", "{\"n\":1}");
    post("payouts", "second", "{\"n\":2}");
    post("payouts", "third", "{\"n\":3}");

    given()
        .get("/sandbox/effects/payouts?limit=2")
        .then()
        .statusCode(200)
        .body("total", equalTo(3))
        .body("effects.idempotencyKey", contains("first", "second"));
    given().get("/sandbox/effects/refunds").then().statusCode(404);
  }

  @Test
  void resetClearsStoresAndStats() {
    post("receipts", "before-reset", "{}").then().statusCode(201);

    given().post("/sandbox/reset").then().statusCode(200).body("receipts.rawCalls", equalTo(0));

    effect("receipts", "before-reset").then().statusCode(404);
    assertThat(stats("receipts").getLong("effectiveCalls")).isZero();
    assertThat(stats("receipts").getInt("keys")).isZero();
    post("receipts", "before-reset", "{}")
        .then()
        .statusCode(201)
        .header("Idempotency-Replayed", equalTo(null));
  }
}
