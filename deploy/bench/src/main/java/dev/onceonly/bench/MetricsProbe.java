package dev.onceonly.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the consumer's Prometheus page and keeps the OnceOnly series: {@code
 * onceonly_consumer_messages_total{consumer,outcome}} and {@code
 * onceonly_consumer_handle_seconds{consumer,quantile}} with its {@code _count}, {@code _sum} and
 * {@code _max}.
 */
final class MetricsProbe {

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI uri;

  MetricsProbe(URI uri) {
    this.uri = uri;
  }

  Snapshot read() throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException(uri + " answered " + response.statusCode());
    }
    Map<String, Double> values = new HashMap<>();
    for (String line : response.body().split("\n")) {
      if (line.startsWith("onceonly_consumer_")) {
        int space = line.lastIndexOf(' ');
        values.put(key(line.substring(0, space)), Double.parseDouble(line.substring(space + 1)));
      }
    }
    return new Snapshot(values);
  }

  /** A series name with its labels in a stable order, so that lookups do not depend on layout. */
  static String key(String series) {
    int brace = series.indexOf('{');
    if (brace < 0) {
      return series;
    }
    Map<String, String> labels = new TreeMap<>();
    for (String pair : series.substring(brace + 1, series.lastIndexOf('}')).split(",")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        labels.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).replace("\"", "").trim());
      }
    }
    return series.substring(0, brace) + labels;
  }

  record Snapshot(Map<String, Double> values) {

    double messages(String consumer, String outcome) {
      return get("onceonly_consumer_messages_total", "consumer", consumer, "outcome", outcome);
    }

    double handleCount(String consumer) {
      return get("onceonly_consumer_handle_seconds_count", "consumer", consumer);
    }

    double handleSum(String consumer) {
      return get("onceonly_consumer_handle_seconds_sum", "consumer", consumer);
    }

    double handleMax(String consumer) {
      return get("onceonly_consumer_handle_seconds_max", "consumer", consumer);
    }

    double quantile(String consumer, String quantile) {
      return get("onceonly_consumer_handle_seconds", "consumer", consumer, "quantile", quantile);
    }

    private double get(String name, String... labelPairs) {
      Map<String, String> labels = new TreeMap<>();
      for (int i = 0; i < labelPairs.length; i += 2) {
        labels.put(labelPairs[i], labelPairs[i + 1]);
      }
      return values.getOrDefault(name + labels, 0.0);
    }
  }
}
