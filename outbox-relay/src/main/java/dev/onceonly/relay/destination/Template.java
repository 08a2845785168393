package dev.onceonly.relay.destination;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.lease.LeasedRow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * A destination's text with placeholders taken from the row: {@code {id}}, {@code
 * {idempotencyKey}}, {@code {orderingKey}}, {@code {destination}} and {@code {payload.<field>}}
 * (nested fields dotted, array elements by index: {@code {payload.lines.0.sku}}). Used for URLs,
 * routing keys and record keys. A value must be a string, a number or a boolean; a row whose
 * payload lacks it (or that has no ordering key) cannot be sent ({@link MissingValue}). Braces only
 * ever open and close a placeholder.
 */
public final class Template {

  private static final Pattern PAYLOAD = Pattern.compile("payload(\\.[A-Za-z0-9_-]+)+");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One piece of the text: literal, or a placeholder. */
  private sealed interface Part permits Literal, RowValue, PayloadField {}

  private record Literal(String text) implements Part {}

  private record RowValue(String name) implements Part {}

  private record PayloadField(String placeholder, List<String> path) implements Part {}

  /** The row cannot fill the template: its payload lacks a field, or the field is not a value. */
  public static final class MissingValue extends Exception {
    MissingValue(String message) {
      super(message);
    }
  }

  private final String text;
  private final List<Part> parts;

  private Template(String text, List<Part> parts) {
    this.text = text;
    this.parts = List.copyOf(parts);
  }

  /**
   * Reads {@code text}; a malformed one (an unclosed or stray brace, an unknown placeholder) is an
   * {@link IllegalArgumentException} saying what is wrong.
   */
  public static Template parse(String text) {
    List<Part> parts = new ArrayList<>();
    int at = 0;
    while (at < text.length()) {
      int open = text.indexOf('{', at);
      int stray = text.indexOf('}', at);
      if (stray >= 0 && (open < 0 || stray < open)) {
        throw new IllegalArgumentException("'}' at position " + stray + " closes nothing");
      }
      if (open < 0) {
        parts.add(new Literal(text.substring(at)));
        break;
      }
      if (open > at) {
        parts.add(new Literal(text.substring(at, open)));
      }
      int close = text.indexOf('}', open);
      int nested = text.indexOf('{', open + 1);
      if (close < 0 || (nested >= 0 && nested < close)) {
        throw new IllegalArgumentException("'{' at position " + open + " is not closed");
      }
      parts.add(placeholder(text.substring(open + 1, close)));
      at = close + 1;
    }
    return new Template(text, parts);
  }

  private static Part placeholder(String name) {
    switch (name) {
      case "id":
      case "idempotencyKey":
      case "orderingKey":
      case "destination":
        return new RowValue(name);
      default:
        if (PAYLOAD.matcher(name).matches()) {
          List<String> path = List.of(name.substring("payload.".length()).split("\\."));
          return new PayloadField(name, path);
        }
        throw new IllegalArgumentException(
            "unknown placeholder {"
                + name
                + "}: use {id}, {idempotencyKey}, {orderingKey}, {destination} or"
                + " {payload.<field>}");
    }
  }

  /** Whether filling it needs the row's payload read as JSON. */
  public boolean readsPayload() {
    return parts.stream().anyMatch(p -> p instanceof PayloadField);
  }

  /** Whether it has no placeholder at all (the same text for every row). */
  public boolean isConstant() {
    return parts.stream().allMatch(p -> p instanceof Literal);
  }

  /** The text as configured. */
  public String text() {
    return text;
  }

  /**
   * The text for {@code row}, each value passed through {@code encode} (e.g. percent-encoding);
   * {@code payload} is the row's payload read as JSON, or null when {@link #readsPayload} is false.
   */
  public String render(LeasedRow row, JsonNode payload, UnaryOperator<String> encode)
      throws MissingValue {
    StringBuilder out = new StringBuilder(text.length() + 32);
    for (Part part : parts) {
      if (part instanceof Literal literal) {
        out.append(literal.text());
      } else if (part instanceof RowValue value) {
        out.append(encode.apply(rowValue(row, value.name())));
      } else {
        out.append(encode.apply(field(payload, (PayloadField) part)));
      }
    }
    return out.toString();
  }

  /**
   * The text for {@code row}, its payload read as JSON only when a placeholder needs it, each value
   * passed through {@code encode}.
   */
  public String render(LeasedRow row, UnaryOperator<String> encode) throws MissingValue {
    if (isConstant()) {
      return text;
    }
    JsonNode payload = null;
    if (readsPayload()) {
      try {
        payload = JSON.readTree(row.payload());
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("stored payload of row " + row.id() + " is not JSON", e);
      }
    }
    return render(row, payload, encode);
  }

  /** The text with every placeholder replaced by {@code sample}: to check what it would make. */
  public String sample(String sample) {
    StringBuilder out = new StringBuilder();
    for (Part part : parts) {
      out.append(part instanceof Literal literal ? literal.text() : sample);
    }
    return out.toString();
  }

  private static String rowValue(LeasedRow row, String name) throws MissingValue {
    return switch (name) {
      case "id" -> Long.toString(row.id());
      case "idempotencyKey" -> row.idempotencyKey();
      case "orderingKey" -> {
        if (row.orderingKey() == null) {
          throw new MissingValue("the row has no ordering key for {orderingKey}");
        }
        yield row.orderingKey();
      }
      default -> row.kind();
    };
  }

  private static String field(JsonNode payload, PayloadField field) throws MissingValue {
    JsonNode node = payload;
    for (String name : field.path()) {
      if (node == null) {
        break;
      }
      node =
          node.isArray() && name.chars().allMatch(Character::isDigit)
              ? index(node, name)
              : node.get(name);
    }
    if (node == null || node.isNull() || node.isMissingNode()) {
      throw new MissingValue("the payload has no value for {" + field.placeholder() + "}");
    }
    if (!node.isValueNode()) {
      throw new MissingValue(
          "{"
              + field.placeholder()
              + "} is "
              + node.getNodeType().name().toLowerCase()
              + " in the payload, not a string, number or boolean");
    }
    return node.asText();
  }

  private static JsonNode index(JsonNode array, String digits) {
    return digits.length() > 9 ? null : array.get(Integer.parseInt(digits));
  }
}
