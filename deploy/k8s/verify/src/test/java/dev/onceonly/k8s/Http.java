package dev.onceonly.k8s;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** Small HTTP calls to the running pods. */
final class Http {

  /** Status and body of one answer (status 0: nothing answered). */
  record Answer(int status, String body) {}

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Http() {}

  static Answer get(String url) {
    return send(HttpRequest.newBuilder(URI.create(url)).GET());
  }

  static Answer get(String url, String user, String password) {
    return send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Authorization", basic(user, password))
            .GET());
  }

  static Answer put(String url, String json) {
    return send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(json)));
  }

  static Answer post(String url, String json, String idempotencyKey) {
    return send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", idempotencyKey)
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  static Answer delete(String url) {
    return send(HttpRequest.newBuilder(URI.create(url)).DELETE());
  }

  private static Answer send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          CLIENT.send(
              request.timeout(Duration.ofSeconds(10)).build(),
              HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body());
    } catch (IOException e) {
      return new Answer(0, String.valueOf(e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(0, "interrupted");
    }
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }
}
