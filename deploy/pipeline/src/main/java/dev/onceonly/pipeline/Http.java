package dev.onceonly.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** GET over HTTP with short timeouts; anything but 2xx is an error naming the URL. */
public final class Http {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  private Http() {}

  public static String get(String url) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build();
    HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IOException("GET " + url + " answered " + response.statusCode());
    }
    return response.body();
  }

  public static JsonNode getJson(String url) throws IOException, InterruptedException {
    return JSON.readTree(get(url));
  }
}
