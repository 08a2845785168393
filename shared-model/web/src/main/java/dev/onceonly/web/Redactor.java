package dev.onceonly.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Hides secrets and personal data in a payload before an operator sees it: the value of every field
 * whose name is configured (at any depth, in arrays too, ignoring case) becomes {@value #MASK},
 * whatever its type. The stored payload is never changed.
 */
public final class Redactor {

  public static final String MASK = "***";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Set<String> fields;

  public Redactor(Collection<String> fields) {
    this.fields =
        fields.stream()
            .map(String::strip)
            .filter(f -> !f.isEmpty())
            .map(f -> f.toLowerCase(Locale.ROOT))
            .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * A redacted copy of {@code text} when it is a JSON object or array (a stored payload); otherwise
   * the text unchanged: free text has no fields to redact.
   */
  public String redactText(String text) {
    if (text == null) {
      return null;
    }
    String trimmed = text.strip();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) {
      return text;
    }
    try {
      return redact(JSON.readTree(trimmed)).toString();
    } catch (JsonProcessingException e) {
      return MASK; // looks like a payload but does not parse: show nothing rather than too much
    }
  }

  /** A redacted copy of {@code payload}. */
  public JsonNode redact(JsonNode payload) {
    JsonNode copy = payload.deepCopy();
    mask(copy);
    return copy;
  }

  private void mask(JsonNode node) {
    if (node instanceof ObjectNode) {
      ObjectNode object = (ObjectNode) node;
      List<String> names = new ArrayList<>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        if (fields.contains(name.toLowerCase(Locale.ROOT))) {
          object.set(name, TextNode.valueOf(MASK));
        } else {
          mask(object.get(name));
        }
      }
    } else if (node instanceof ArrayNode) {
      node.forEach(this::mask);
    }
  }
}
