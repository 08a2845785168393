package dev.onceonly.sandbox.provider;

import static dev.onceonly.sandbox.SandboxClient.effect;
import static dev.onceonly.sandbox.SandboxClient.resetAll;
import static dev.onceonly.sandbox.SandboxClient.stats;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook receiver takes a call only with a valid, fresh Standard Webhooks signature, and takes
 * a repeated delivery of one {@code webhook-id} once. The calls are signed here as a sender would,
 * with the sandbox's default (public) secret.
 */
@QuarkusTest
class WebhookReceiverTest {

  private static final byte[] SECRET =
      "onceonly-sandbox-webhook-secret!".getBytes(StandardCharsets.UTF_8);
  private static final String BODY = "{\"type\":\"order.completed\",\"orderId\":\"o-1\"}";

  @BeforeEach
  void clean() {
    resetAll();
  }

  @Test
  void aSignedCallIsTakenOnceAndARepeatedDeliveryIsReplayed() {
    long now = Instant.now().getEpochSecond();

    send("msg_1", now, "v1," + sign(SECRET, "msg_1", now, BODY), BODY).then().statusCode(201);
    send("msg_1", now + 5, "v1," + sign(SECRET, "msg_1", now + 5, BODY), BODY)
        .then()
        .statusCode(201)
        .header("Idempotency-Replayed", equalTo("true"));

    effect("webhooks", "msg_1").then().statusCode(200);
    assertThat(stats("webhooks").getLong("effectiveCalls")).isEqualTo(1);
    assertThat(stats("webhooks").getLong("replays")).isEqualTo(1);
  }

  @Test
  void oneValidSignatureAmongSeveralIsEnough() {
    long now = Instant.now().getEpochSecond();
    String other =
        sign("another-secret-of-24-byte".getBytes(StandardCharsets.UTF_8), "msg_2", now, BODY);

    send("msg_2", now, "v1," + other + " v1," + sign(SECRET, "msg_2", now, BODY), BODY)
        .then()
        .statusCode(201);
  }

  @Test
  void aForgedTamperedOrStaleCallIsRefusedAndTakesNothing() {
    long now = Instant.now().getEpochSecond();
    String valid = sign(SECRET, "msg_3", now, BODY);

    send("msg_3", now, "v1," + valid, BODY.replace("o-1", "o-2"))
        .then()
        .statusCode(401)
        .body("type", equalTo("urn:onceonly:sandbox:bad-webhook-signature"));
    send(
            "msg_3",
            now,
            "v1," + sign("wrong-secret-of-24-bytes".getBytes(), "msg_3", now, BODY),
            BODY)
        .then()
        .statusCode(401);
    send("msg_3", now - 600, "v1," + sign(SECRET, "msg_3", now - 600, BODY), BODY)
        .then()
        .statusCode(401)
        .body("type", equalTo("urn:onceonly:sandbox:stale-webhook"));
    given().contentType(ContentType.JSON).body(BODY).post("/v1/webhooks").then().statusCode(400);

    effect("webhooks", "msg_3").then().statusCode(404);
    assertThat(stats("webhooks").getLong("effectiveCalls")).isZero();
    assertThat(stats("webhooks").getLong("refusals")).isEqualTo(4);
  }

  private static Response send(String id, long timestamp, String signature, String body) {
    return given()
        .header("webhook-id", id)
        .header("webhook-timestamp", Long.toString(timestamp))
        .header("webhook-signature", signature)
        .contentType(ContentType.JSON)
        .body(body)
        .post("/v1/webhooks");
  }

  private static String sign(byte[] secret, String id, long timestamp, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      byte[] signature =
          mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
      return Base64.getEncoder().encodeToString(signature);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
