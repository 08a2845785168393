package dev.onceonly.sandbox.admin;

import static dev.onceonly.sandbox.SandboxClient.post;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(ConfiguredFaultsTest.ThrottledReceipts.class)
class ConfiguredFaultsTest {

  /** Receipts throttled from start by configuration; payouts left alone. */
  public static class ThrottledReceipts implements QuarkusTestProfile {
    @Override
    public Map<String, String> getConfigOverrides() {
      return Map.of(
          "sandbox.faults.seed", "5",
          "sandbox.faults.retry-after-seconds", "9",
          "sandbox.faults.receipts.throttle-rate", "1.0");
    }
  }

  @Test
  void faultsConfiguredAtStartAreInForceAndShown() {
    given()
        .get("/sandbox/faults")
        .then()
        .body("seed", equalTo(5))
        .body("receipts.throttleRate", equalTo(1.0f))
        .body("effective.payouts.throttleRate", equalTo(0.0f))
        .body("effective.payouts.retryAfterSeconds", equalTo(9));

    post("receipts", "configured", "{}").then().statusCode(429).header("Retry-After", "9");
    post("payouts", "configured", "{}").then().statusCode(201);
  }
}
