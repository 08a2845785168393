package dev.onceonly.relay.destination.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.DeliveryResult.Classification;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.destination.ErrorBodies;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.support.Configs;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an HTTP destination sends (method, URL from its template, headers, credentials, the key in
 * its idempotency header), how it classifies answers, and what it keeps of an error body: at most
 * {@link HttpDestination#MAX_BODY_BYTES} in memory, masked, on a connection that still works after
 * a huge body.
 */
class HttpDestinationTest {

  private static final String HUGE_TAIL = "x".repeat(2 * 1024 * 1024);

  /** One request as the server saw it. */
  record Seen(String method, String uri, MultiMap headers, String body) {}

  private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
  private Vertx vertx;
  private HttpServer server;

  @BeforeEach
  void provider() throws Exception {
    vertx = Vertx.vertx();
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                request ->
                    request.body(
                        body -> {
                          seen.add(
                              new Seen(
                                  request.method().name(),
                                  request.uri(),
                                  MultiMap.caseInsensitiveMultiMap().addAll(request.headers()),
                                  body.result().toString(StandardCharsets.UTF_8)));
                          if (request.path().equals("/huge")) {
                            request
                                .response()
                                .setStatusCode(500)
                                .setChunked(true)
                                .end("{\"email\":\"ann@example.com\",\"trace\":\"" + HUGE_TAIL);
                          } else if (request.path().startsWith("/status/")) {
                            request
                                .response()
                                .setStatusCode(Integer.parseInt(request.path().substring(8)))
                                .end("{}");
                          } else {
                            request.response().setStatusCode(201).end("{\"id\":\"rcpt_1\"}");
                          }
                        }))
            .listen(0)
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aRowGoesWithTheConfiguredMethodUrlHeadersAndKeyHeader() throws Exception {
    HttpDestination labels =
        destination(
            Map.of(
                "http.url",
                    base() + "/v1/labels/{payload.order.id}?carrier={payload.carrier}&row={id}",
                "http.method", "put",
                "http.idempotency-header", "X-Request-Id",
                "http.headers.\"X-Tenant\"", "acme",
                "http.auth.type", "bearer",
                "http.auth.token", "s3cr3t"));

    DeliveryResult result =
        labels
            .send(row(7, "{\"order\":{\"id\":\"A/7 b\"},\"carrier\":\"ups\"}"), "00-trace")
            .get(20, TimeUnit.SECONDS);

    assertThat(result.classification()).isEqualTo(Classification.SUCCESS);
    Seen call = seen.poll(10, TimeUnit.SECONDS);
    assertThat(call.method()).isEqualTo("PUT");
    assertThat(call.uri()).isEqualTo("/v1/labels/A%2F7%20b?carrier=ups&row=7");
    assertThat(call.headers().get("X-Request-Id")).isEqualTo("key-7");
    assertThat(call.headers().get("Idempotency-Key")).isNull();
    assertThat(call.headers().get("X-Tenant")).isEqualTo("acme");
    assertThat(call.headers().get("Authorization")).isEqualTo("Bearer s3cr3t");
    assertThat(call.headers().get("traceparent")).isEqualTo("00-trace");
    assertThat(call.headers().get("Content-Type")).isEqualTo("application/json");
    assertThat(call.body()).isEqualTo("{\"order\":{\"id\":\"A/7 b\"},\"carrier\":\"ups\"}");
  }

  @Test
  void basicAndApiKeyCredentialsGoInTheirHeaders() throws Exception {
    destination(
            Map.of(
                "http.url", base() + "/a", "http.auth.username", "ann", "http.auth.password", "pw"))
        .send(row(1, "{}"), null)
        .get(20, TimeUnit.SECONDS);
    destination(
            Map.of(
                "http.url", base() + "/b",
                "http.auth.header-name", "X-Api-Key",
                "http.auth.header-value", "k-123"))
        .send(row(2, "{}"), null)
        .get(20, TimeUnit.SECONDS);

    Seen basic = seen.poll(10, TimeUnit.SECONDS);
    Seen apiKey = seen.poll(10, TimeUnit.SECONDS);
    assertThat(basic.headers().get("Authorization"))
        .isEqualTo("Basic " + Base64.getEncoder().encodeToString("ann:pw".getBytes()));
    assertThat(basic.headers().get("Idempotency-Key")).isEqualTo("key-1");
    assertThat(apiKey.headers().get("X-Api-Key")).isEqualTo("k-123");
    assertThat(apiKey.headers().get("Authorization")).isNull();
  }

  /**
   * A receiver checks a signed call as the Standard Webhooks specification tells it to, written
   * here on its own: the signature over {@code id.timestamp.body} with its secret, a timestamp
   * within five minutes, and the id to de-duplicate by, the same on a repeated attempt.
   */
  @Test
  void aSignedCallVerifiesWithEitherSecretOfARotationAndKeepsItsIdAcrossAttempts()
      throws Exception {
    String current = "whsec_" + Base64.getEncoder().encodeToString("c".repeat(32).getBytes());
    String previous = "whsec_" + Base64.getEncoder().encodeToString("p".repeat(32).getBytes());
    HttpDestination hooks =
        destination(
            Map.of(
                "http.url", base() + "/hooks",
                "http.signing.secret", current,
                "http.signing.previous-secret", previous));
    LeasedRow row = row(9, "{\"event\": \"order.completed\", \"total\": 12.50}");

    hooks.send(row, null).get(20, TimeUnit.SECONDS);
    hooks.send(row, null).get(20, TimeUnit.SECONDS);

    Seen first = seen.poll(10, TimeUnit.SECONDS);
    Seen again = seen.poll(10, TimeUnit.SECONDS);
    for (Seen call : List.of(first, again)) {
      assertThat(Receiver.verifies(call, "c".repeat(32))).as("with the current secret").isTrue();
      assertThat(Receiver.verifies(call, "p".repeat(32))).as("with the previous secret").isTrue();
      assertThat(Receiver.verifies(call, "x".repeat(32))).as("with another secret").isFalse();
    }
    assertThat(again.headers().get("webhook-id")).isEqualTo(first.headers().get("webhook-id"));
    assertThat(first.headers().get("webhook-id")).startsWith("msg_");
    assertThat(first.headers().get("Idempotency-Key")).isEqualTo("key-9");
  }

  @Test
  void aTamperedBodyOrAnOldTimestampDoesNotVerify() throws Exception {
    String secret = "whsec_" + Base64.getEncoder().encodeToString("s".repeat(24).getBytes());
    destination(Map.of("http.url", base() + "/hooks", "http.signing.secret", secret))
        .send(row(10, "{\"amount\":1}"), null)
        .get(20, TimeUnit.SECONDS);
    Seen call = seen.poll(10, TimeUnit.SECONDS);

    assertThat(Receiver.verifies(call, "s".repeat(24))).isTrue();
    Seen tampered = new Seen(call.method(), call.uri(), call.headers(), "{\"amount\":100}");
    assertThat(Receiver.verifies(tampered, "s".repeat(24))).isFalse();
    MultiMap stale = MultiMap.caseInsensitiveMultiMap().addAll(call.headers());
    stale.set("webhook-timestamp", Long.toString(Instant.now().minusSeconds(600).getEpochSecond()));
    assertThat(
            Receiver.verifies(
                new Seen(call.method(), call.uri(), stale, call.body()), "s".repeat(24)))
        .isFalse();
  }

  /** A receiver's check, as the specification describes it; nothing of the relay's code. */
  static final class Receiver {

    static boolean verifies(Seen call, String secret) throws Exception {
      String id = call.headers().get("webhook-id");
      String timestamp = call.headers().get("webhook-timestamp");
      String signatures = call.headers().get("webhook-signature");
      if (id == null || timestamp == null || signatures == null) {
        return false;
      }
      long age = Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp));
      if (age > 300) {
        return false;
      }
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(
          new javax.crypto.spec.SecretKeySpec(
              secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] expected =
          mac.doFinal((id + "." + timestamp + "." + call.body()).getBytes(StandardCharsets.UTF_8));
      for (String signature : signatures.split(" ")) {
        String[] parts = signature.split(",", 2);
        if (parts.length == 2
            && parts[0].equals("v1")
            && java.security.MessageDigest.isEqual(
                expected, Base64.getDecoder().decode(parts[1]))) {
          return true;
        }
      }
      return false;
    }
  }

  @Test
  void answersAreClassifiedByTheDestinationsResponseClasses() throws Exception {
    Map<String, String> alreadyDone = new HashMap<>();
    alreadyDone.put("http.url", base() + "/status/{payload.status}");
    alreadyDone.put("http.responses.success", "2xx,409");
    alreadyDone.put("http.responses.retryable", "429,5xx");
    HttpDestination destination = destination(alreadyDone);

    assertThat(classify(destination, 409)).isEqualTo(Classification.SUCCESS);
    assertThat(classify(destination, 503)).isEqualTo(Classification.RETRYABLE);
    assertThat(classify(destination, 408)).isEqualTo(Classification.FINAL);
    DeliveryResult unavailable =
        destination.send(row(1, "{\"status\":503}"), null).get(20, TimeUnit.SECONDS);
    assertThat(unavailable.outage()).as("5xx counts as an outage").isTrue();
    // The body may be gone when the whole answer arrived before its handler ran
    // (HttpDestination#bounded): the status is what counts.
    assertThat(unavailable.describe()).startsWith("HTTP 503");
  }

  @Test
  void aRowWhosePayloadLacksATemplateFieldIsFinalWithoutACall() throws Exception {
    HttpDestination destination =
        destination(Map.of("http.url", base() + "/v1/labels/{payload.orderId}"));

    DeliveryResult result =
        destination.send(row(3, "{\"order\":1}"), null).get(20, TimeUnit.SECONDS);

    assertThat(result.classification()).isEqualTo(Classification.FINAL);
    assertThat(result.outage()).isFalse();
    assertThat(result.describe())
        .isEqualTo("cannot build the URL: the payload has no value for {payload.orderId}");
    assertThat(seen.poll(300, TimeUnit.MILLISECONDS)).as("no call made").isNull();
  }

  @Test
  void aRefusedConnectionIsAnOutageWorthRetrying() throws Exception {
    DeliveryResult result =
        destination(Map.of("http.url", "http://127.0.0.1:9/v1/x"))
            .send(row(4, "{}"), null)
            .get(20, TimeUnit.SECONDS);

    assertThat(result.classification()).isEqualTo(Classification.RETRYABLE);
    assertThat(result.outage()).isTrue();
    assertThat(result.describe()).startsWith("connection refused: POST http://127.0.0.1:9/v1/x");
  }

  @Test
  void aHugeErrorBodyIsCutAtTheLimitAndMasked() throws Exception {
    DeliveryResult response =
        destination(Map.of("http.url", base() + "/huge"))
            .send(row(1, "{}"), null)
            .get(20, TimeUnit.SECONDS);

    assertThat(response.status()).isEqualTo(500);
    assertThat(response.error()).doesNotContain("ann@example.com").contains("\"email\":\"***\"");
    assertThat(response.error().length()).isLessThanOrEqualTo(503);
    // The connection survived the body: the next call is answered normally.
    assertThat(
            destination(Map.of("http.url", base() + "/ok"))
                .send(row(2, "{}"), null)
                .get(20, TimeUnit.SECONDS)
                .status())
        .isEqualTo(201);
  }

  @Test
  void onlyTheLimitIsKeptInMemory() throws Exception {
    String kept =
        vertx
            .createHttpClient()
            .request(io.vertx.core.http.HttpMethod.POST, server.actualPort(), "127.0.0.1", "/huge")
            .compose(request -> request.send("{}"))
            .compose(response -> HttpDestination.bounded(response, true))
            .toCompletionStage()
            .toCompletableFuture()
            .get(20, TimeUnit.SECONDS);

    assertThat(kept).hasSize(HttpDestination.MAX_BODY_BYTES + "...".length()).endsWith("...");
  }

  private Classification classify(HttpDestination destination, int status) throws Exception {
    return destination
        .send(row(status, "{\"status\":" + status + "}"), null)
        .get(20, TimeUnit.SECONDS)
        .classification();
  }

  private String base() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  private HttpDestination destination(Map<String, String> settings) {
    Map<String, String> properties = new HashMap<>();
    settings.forEach((k, v) -> properties.put(Destinations.key("labels", k), v));
    RelayConfig config = Configs.fromProperties(properties);
    HttpSettings http =
        HttpSettings.of(
            config.destinations().get("labels").http().orElseThrow(),
            k -> Destinations.key("labels", "http." + k));
    return new HttpDestination("labels", http, vertx, 4, new ErrorBodies(List.of("email")));
  }

  private static LeasedRow row(long id, String payload) {
    return new LeasedRow(id, "labels", payload, "key-" + id, null, 1, 1, Instant.now(), null, null);
  }
}
