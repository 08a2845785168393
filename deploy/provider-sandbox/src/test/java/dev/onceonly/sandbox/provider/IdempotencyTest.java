package dev.onceonly.sandbox.provider;

import static dev.onceonly.sandbox.SandboxClient.calls;
import static dev.onceonly.sandbox.SandboxClient.effect;
import static dev.onceonly.sandbox.SandboxClient.faults;
import static dev.onceonly.sandbox.SandboxClient.post;
import static dev.onceonly.sandbox.SandboxClient.rawPost;
import static dev.onceonly.sandbox.SandboxClient.resetAll;
import static dev.onceonly.sandbox.SandboxClient.sendAsync;
import static dev.onceonly.sandbox.SandboxClient.stats;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class IdempotencyTest {

  private static final String RECEIPT = "{\"orderId\":\"9912\",\"email\":\"ann@example.com\"}";

  @TestHTTPResource("/")
  URI base;

  @BeforeEach
  void clean() {
    resetAll();
  }

  @Test
  void firstCallWithAKeyTakesEffect() {
    post("receipts", "order-9912", RECEIPT)
        .then()
        .statusCode(201)
        .header("Idempotency-Replayed", nullValue())
        .body("id", startsWith("rcpt_"))
        .body("idempotencyKey", equalTo("order-9912"))
        .body("status", equalTo("accepted"));

    effect("receipts", "order-9912")
        .then()
        .statusCode(200)
        .body("body.orderId", equalTo("9912"))
        .body("calls", equalTo(1));
    assertThat(stats("receipts").getLong("effectiveCalls")).isEqualTo(1);
  }

  @Test
  void sameKeyAndSameBodyReplaysTheStoredAnswerWithoutANewEffect() {
    Response first = post("payouts", "redemption-7", "{\"cents\":500,\"currency\":\"EUR\"}");
    Response again =
        post("payouts", "redemption-7", "{ \"currency\" : \"EUR\",\n \"cents\": 500 }");

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(again.statusCode()).isEqualTo(201);
    assertThat(again.header("Idempotency-Replayed")).isEqualTo("true");
    assertThat(again.asString()).isEqualTo(first.asString());
    assertThat(stats("payouts").getLong("effectiveCalls")).isEqualTo(1);
    assertThat(stats("payouts").getLong("replays")).isEqualTo(1);
    effect("payouts", "redemption-7").then().body("calls", equalTo(2));
  }

  @Test
  void sameKeyWithAnotherBodyIsRefusedWith422() {
    post("payouts", "redemption-8", "{\"cents\":500}").then().statusCode(201);

    post("payouts", "redemption-8", "{\"cents\":5000}")
        .then()
        .statusCode(422)
        .contentType("application/problem+json")
        .body("status", equalTo(422))
        .body("idempotencyKey", equalTo("redemption-8"));

    effect("payouts", "redemption-8").then().body("body.cents", equalTo(500));
    assertThat(stats("payouts").getLong("effectiveCalls")).isEqualTo(1);
    assertThat(stats("payouts").getLong("refusals")).isEqualTo(1);
  }

  @Test
  void callWhileTheFirstWithItsKeyIsInFlightIsRefusedWith409() throws Exception {
    faults("{\"latencyMs\":1500}");
    CompletableFuture<HttpResponse<String>> first =
        sendAsync(rawPost(base, "receipts", "slow", RECEIPT, Duration.ofSeconds(10)));
    await().atMost(Duration.ofSeconds(5)).until(() -> calls("receipts", "slow") == 1);

    post("receipts", "slow", RECEIPT)
        .then()
        .statusCode(409)
        .contentType("application/problem+json");

    assertThat(first.get().statusCode()).isEqualTo(201);
    assertThat(stats("receipts").getLong("effectiveCalls")).isEqualTo(1);
    assertThat(stats("receipts").getLong("refusalsByStatus.'409'")).isEqualTo(1);
  }

  @Test
  void aBurstOfConcurrentCallsWithOneKeyTakesExactlyOneEffect() throws Exception {
    faults("{\"latencyMs\":2000}");
    List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      burst.add(
          sendAsync(rawPost(base, "payouts", "burst", "{\"cents\":1}", Duration.ofSeconds(10))));
    }

    List<Integer> statuses = new ArrayList<>();
    for (CompletableFuture<HttpResponse<String>> call : burst) {
      statuses.add(call.get().statusCode());
    }

    assertThat(statuses).containsOnlyOnce(201);
    assertThat(statuses).filteredOn(s -> s != 201).containsOnly(409);
    assertThat(stats("payouts").getLong("effectiveCalls")).isEqualTo(1);
    assertThat(stats("payouts").getLong("refusals")).isEqualTo(15);
  }

  @Test
  void missingOrBlankKeyIsRefusedWith400() {
    given()
        .contentType("application/json")
        .body(RECEIPT)
        .post("/v1/receipts")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("title", equalTo("Idempotency-Key required"));
    post("receipts", "  ", RECEIPT).then().statusCode(400);

    assertThat(stats("receipts").getLong("effectiveCalls")).isZero();
    assertThat(stats("receipts").getLong("refusalsByStatus.'400'")).isEqualTo(2);
  }

  @Test
  void bodyThatIsNotJsonIsRefusedWith400() {
    post("receipts", "broken", "{\"orderId\":").then().statusCode(400).body("status", equalTo(400));

    effect("receipts", "broken").then().statusCode(404);
  }

  @Test
  void keysOfTheTwoApisAreIndependent() {
    post("receipts", "shared-key", RECEIPT).then().statusCode(201);

    post("payouts", "shared-key", "{\"cents\":1}")
        .then()
        .statusCode(201)
        .header("Idempotency-Replayed", nullValue())
        .body("id", startsWith("po_"));
  }
}
