package dev.onceonly.relay.destination;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.web.Redactor;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Masks personal data in a destination's error body before it becomes a row's {@code last_error} or
 * an attempt's {@code error}: providers echo the request back (an e-mail address, an IBAN), and
 * those texts are shown to every operator and kept for months. The fields are the ones the row
 * detail redacts ({@code relay.operations.redact-fields}). A JSON body is redacted field by field
 * at any depth; anything else (a body cut short, HTML with JSON inside) has every {@code "field":
 * value} pair of those names masked.
 */
public final class ErrorBodies {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Redactor redactor;
  private final Pattern pairs;

  public ErrorBodies(Collection<String> fields) {
    this.redactor = new Redactor(fields);
    String names =
        fields.stream()
            .map(String::strip)
            .filter(f -> !f.isEmpty())
            .map(Pattern::quote)
            .collect(Collectors.joining("|"));
    this.pairs =
        names.isEmpty()
            ? null
            : Pattern.compile(
                "\"(" + names + ")\"\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"?|[^,}\\]\\s]*)",
                Pattern.CASE_INSENSITIVE);
  }

  /** {@code body} with the configured fields masked; null and blank bodies as they are. */
  public String redact(String body) {
    if (body == null || body.isBlank() || pairs == null) {
      return body;
    }
    try {
      JsonNode parsed = JSON.readTree(body);
      if (parsed != null && parsed.isContainerNode()) {
        return JSON.writeValueAsString(redactor.redact(parsed));
      }
    } catch (JsonProcessingException e) {
      // not JSON as a whole (cut short, or text around it): mask the pairs found in it
    }
    Matcher m = pairs.matcher(body);
    return m.replaceAll(
        r -> Matcher.quoteReplacement("\"" + r.group(1) + "\":\"" + Redactor.MASK + "\""));
  }
}
