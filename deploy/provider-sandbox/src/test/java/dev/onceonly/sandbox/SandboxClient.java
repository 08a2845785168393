package dev.onceonly.sandbox;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Calls the sandbox the way the relay does, and reads its admin endpoints. */
public final class SandboxClient {

  private static final HttpClient HTTP =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private SandboxClient() {}

  /** Switches faults off and forgets all keys, effects and counters. */
  public static void resetAll() {
    given().delete("/sandbox/faults").then().statusCode(200);
    given().post("/sandbox/reset").then().statusCode(200);
  }

  public static void faults(String json) {
    given().contentType(ContentType.JSON).body(json).put("/sandbox/faults").then().statusCode(200);
  }

  public static Response post(String api, String key, String body) {
    return given()
        .header("Idempotency-Key", key)
        .contentType(ContentType.JSON)
        .body(body)
        .post("/v1/" + api);
  }

  public static JsonPath stats(String api) {
    return given()
        .get("/sandbox/stats")
        .then()
        .statusCode(200)
        .extract()
        .jsonPath()
        .setRootPath(api);
  }

  /** Calls made with a key (0 if it was never used). */
  public static int calls(String api, String key) {
    Response r = given().get("/sandbox/calls/" + api + "/" + key);
    return r.statusCode() == 404 ? 0 : r.jsonPath().getInt("calls");
  }

  public static Response effect(String api, String key) {
    return given().get("/sandbox/effects/" + api + "/" + key);
  }

  /** A raw call outside RestAssured, for timeouts, dropped connections and concurrency. */
  public static HttpRequest rawPost(
      URI base, String api, String key, String body, Duration timeout) {
    return HttpRequest.newBuilder(base.resolve("/v1/" + api))
        .header("Idempotency-Key", key)
        .header("Content-Type", "application/json")
        .timeout(timeout)
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  public static HttpResponse<String> send(HttpRequest request)
      throws IOException, InterruptedException {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  public static CompletableFuture<HttpResponse<String>> sendAsync(HttpRequest request) {
    return HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString());
  }
}
