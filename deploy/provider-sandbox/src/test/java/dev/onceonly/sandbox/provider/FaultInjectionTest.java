package dev.onceonly.sandbox.provider;

import static dev.onceonly.sandbox.SandboxClient.calls;
import static dev.onceonly.sandbox.SandboxClient.effect;
import static dev.onceonly.sandbox.SandboxClient.faults;
import static dev.onceonly.sandbox.SandboxClient.post;
import static dev.onceonly.sandbox.SandboxClient.rawPost;
import static dev.onceonly.sandbox.SandboxClient.resetAll;
import static dev.onceonly.sandbox.SandboxClient.send;
import static dev.onceonly.sandbox.SandboxClient.stats;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class FaultInjectionTest {

  private static final String PAYOUT = "{\"redemptionId\":\"r-1\",\"cents\":700}";

  @TestHTTPResource("/")
  URI base;

  @BeforeEach
  void clean() {
    resetAll();
  }

  @Test
  void injectedErrorAnswers5xxBeforeTakingEffect() {
    faults("{\"script\":{\"err\":[\"503\"]}}");

    post("payouts", "err", PAYOUT).then().statusCode(503).contentType("application/problem+json");

    effect("payouts", "err").then().statusCode(404);
    assertThat(stats("payouts").getLong("effectiveCalls")).isZero();
    assertThat(stats("payouts").getLong("injectedFaults.error")).isEqualTo(1);
    post("payouts", "err", PAYOUT)
        .then()
        .statusCode(201)
        .header("Idempotency-Replayed", nullValue());
  }

  @Test
  void effectThen500StoresTheEffectAndARetryReplaysIt() {
    faults("{\"script\":{\"etf\":[\"effect-then-500\"]}}");

    post("payouts", "etf", PAYOUT).then().statusCode(500);

    effect("payouts", "etf").then().statusCode(200);
    post("payouts", "etf", PAYOUT)
        .then()
        .statusCode(201)
        .header("Idempotency-Replayed", equalTo("true"));
    assertThat(stats("payouts").getLong("effectiveCalls")).isEqualTo(1);
    assertThat(stats("payouts").getLong("injectedFaults.effectThen500")).isEqualTo(1);
  }

  @Test
  void dropClosesTheConnectionAfterStoringTheEffect() throws Exception {
    faults("{\"script\":{\"drop\":[\"effect-then-drop\"]}}");

    assertThatThrownBy(() -> send(rawPost(base, "payouts", "drop", PAYOUT, Duration.ofSeconds(10))))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(HttpTimeoutException.class);

    effect("payouts", "drop").then().statusCode(200).body("body.cents", equalTo(700));
    post("payouts", "drop", PAYOUT).then().statusCode(201).header("Idempotency-Replayed", "true");
    assertThat(stats("payouts").getLong("effectiveCalls")).isEqualTo(1);
  }

  @Test
  void dropModeOfTheRateDropsInsteadOfAnswering500() throws Exception {
    faults("{\"effectThenFailRate\":1.0,\"effectThenFailMode\":\"drop\"}");

    assertThatThrownBy(() -> send(rawPost(base, "receipts", "d", "{}", Duration.ofSeconds(10))))
        .isInstanceOf(IOException.class);

    assertThat(stats("receipts").getLong("injectedFaults.effectThenDrop")).isEqualTo(1);
    effect("receipts", "d").then().statusCode(200);
  }

  @Test
  void throttledCallGets429WithRetryAfterAndNoEffect() {
    faults("{\"receipts\":{\"throttleRate\":1.0,\"retryAfterSeconds\":7}}");

    post("receipts", "busy", "{}").then().statusCode(429).header("Retry-After", "7");

    effect("receipts", "busy").then().statusCode(404);
    post("payouts", "busy", "{}").then().statusCode(201);
  }

  @Test
  void hungCallOutlastsTheClientTimeoutAndAnswersLater() throws Exception {
    faults("{\"hangRate\":1.0,\"hangMs\":1500}");

    assertThatThrownBy(() -> send(rawPost(base, "receipts", "hang", "{}", Duration.ofMillis(300))))
        .isInstanceOf(HttpTimeoutException.class);

    effect("receipts", "hang").then().statusCode(200);
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                given()
                    .get("/sandbox/calls/receipts/hang")
                    .then()
                    .body("lastOutcome", equalTo("hang-created")));
    assertThat(stats("receipts").getLong("injectedFaults.hang")).isEqualTo(1);
  }

  @Test
  void aHangBeforeTheEffectOnOneApiTakesNothingAndNeverAnswers() throws Exception {
    faults("{\"payouts\":{\"hangRate\":1.0,\"hangMs\":1000,\"hangMode\":\"before-effect\"}}");

    assertThatThrownBy(() -> send(rawPost(base, "payouts", "stall", "{}", Duration.ofMillis(300))))
        .isInstanceOf(HttpTimeoutException.class);
    post("receipts", "stall", "{}").then().statusCode(201);

    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(
            () ->
                given()
                    .get("/sandbox/calls/payouts/stall")
                    .then()
                    .body("lastOutcome", equalTo("stalled")));
    effect("payouts", "stall").then().statusCode(404);
    assertThat(stats("payouts").getLong("effectiveCalls")).isZero();
    assertThat(stats("payouts").getLong("injectedFaults.hang")).isEqualTo(1);
    assertThat(stats("receipts").getLong("effectiveCalls")).isEqualTo(1);
  }

  @Test
  void sameSeedGivesTheSameFaultSequence() {
    String settings = "{\"seed\":11,\"errorRate\":0.3,\"throttleRate\":0.3}";
    faults(settings);
    List<Integer> firstRun = callMany(40);
    resetAll();
    faults(settings);

    List<Integer> secondRun = callMany(40);

    assertThat(secondRun).isEqualTo(firstRun).contains(201, 429, 500);
  }

  @Test
  void unusableFaultSettingsAreRefusedAndTheOldOnesStay() {
    faults("{\"errorRate\":1.0}");

    given()
        .contentType("application/json")
        .body("{\"errorRate\":2, \"nonsense\":true}")
        .put("/sandbox/faults")
        .then()
        .statusCode(400)
        .contentType("application/problem+json");

    given().get("/sandbox/faults").then().body("errorRate", equalTo(1.0f));
    post("receipts", "still-failing", "{}").then().statusCode(500);
  }

  @Test
  void anErrorStatusPerApiAnswersThatStatusWithoutTheEffect() {
    faults("{\"receipts\": {\"errorRate\": 1.0, \"errorStatus\": 422}}");

    post("receipts", "refused", "{}")
        .then()
        .statusCode(422)
        .contentType("application/problem+json");
    post("payouts", "other-api", PAYOUT).then().statusCode(201);

    assertThat(stats("receipts").getLong("effectiveCalls")).isZero();
    assertThat(stats("receipts").getLong("injectedFaults.error")).isEqualTo(1);
  }

  @Test
  void deletingFaultsSwitchesThemOff() {
    faults("{\"errorRate\":1.0,\"script\":{\"k\":[\"503\"]}}");

    given()
        .delete("/sandbox/faults")
        .then()
        .statusCode(200)
        .body("effective.receipts.errorRate", equalTo(0.0f));

    post("receipts", "k", "{}").then().statusCode(201);
    assertThat(calls("receipts", "k")).isEqualTo(1);
  }

  private static List<Integer> callMany(int n) {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      statuses.add(post("receipts", "seeded-" + i, "{}").statusCode());
    }
    return statuses;
  }
}
