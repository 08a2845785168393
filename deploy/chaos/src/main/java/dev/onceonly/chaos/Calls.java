package dev.onceonly.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** The HTTP calls the suite makes: sandbox faults, the relay's operator API, metrics. */
final class Calls {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

  private Calls() {}

  /** {@code method url} with a JSON body (or none) and optional Basic credentials; 2xx or error. */
  static String send(String method, String url, String json, String user, String password)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json));
    if (json != null) {
      b.header("Content-Type", "application/json");
    }
    if (user != null) {
      String basic = user + ":" + password;
      b.header(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(basic.getBytes(StandardCharsets.UTF_8)));
    }
    HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IOException(method + " " + url + " answered " + r.statusCode() + ": " + r.body());
    }
    return r.body();
  }

  static String send(String method, String url, String json)
      throws IOException, InterruptedException {
    return send(method, url, json, null, null);
  }

  /** The value of a Prometheus metric's first sample (with or without labels); -1 if absent. */
  static double metric(String managementUrl, String name) throws IOException, InterruptedException {
    for (String line : send("GET", managementUrl + "/q/metrics", null).split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
        String value = line.substring(Math.max(line.lastIndexOf('}'), name.length()) + 1).trim();
        return Double.parseDouble(value.split(" ")[0]);
      }
    }
    return -1;
  }
}
