package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Label selectors as the API server applies them: matchLabels and matchExpressions. */
final class Selectors {

  private Selectors() {}

  /**
   * Whether {@code selector} (a LabelSelector, or a plain map as a Service's selector) selects an
   * object with {@code labels}. An empty LabelSelector selects everything.
   */
  static boolean selects(JsonNode selector, JsonNode labels) {
    boolean labelSelector = selector.has("matchLabels") || selector.has("matchExpressions");
    JsonNode matchLabels = labelSelector ? selector.path("matchLabels") : selector;
    List<String> keys = new ArrayList<>();
    matchLabels.fieldNames().forEachRemaining(keys::add);
    for (String key : keys) {
      if (!labels.path(key).asText().equals(matchLabels.path(key).asText()) || !labels.has(key)) {
        return false;
      }
    }
    for (JsonNode expression : selector.path("matchExpressions")) {
      String key = expression.path("key").asText();
      List<String> values = new ArrayList<>();
      for (JsonNode v : expression.path("values")) {
        values.add(v.asText());
      }
      boolean has = labels.has(key);
      boolean in = has && values.contains(labels.path(key).asText());
      boolean ok =
          switch (expression.path("operator").asText()) {
            case "In" -> in;
            case "NotIn" -> !in;
            case "Exists" -> has;
            case "DoesNotExist" -> !has;
            default -> false;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
