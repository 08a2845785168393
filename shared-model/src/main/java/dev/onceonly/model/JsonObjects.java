package dev.onceonly.model;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Message bodies read as one JSON object, strictly: floats as exact decimals (no overflow to
 * Infinity, which cannot be fingerprinted), and anything after the object makes the body invalid
 * rather than silently ignored. The event contract ({@link EventCodec}) and the OnceOnly extension
 * (every message it decodes) read bodies through this, with the same verdicts.
 */
public final class JsonObjects {

  static final ObjectMapper STRICT =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private JsonObjects() {}

  /** The body as a JSON object, or the reason it is none, naming how it starts. */
  public static JsonNode parse(byte[] body) throws InvalidEventException {
    if (body == null || body.length == 0) {
      throw new InvalidEventException("empty body: expected a JSON object");
    }
    if (!startsLikeJson(body)) {
      throw new InvalidEventException("body is not valid JSON (starts with '" + head(body) + "')");
    }
    JsonNode root;
    try {
      root = STRICT.readTree(body);
    } catch (IOException e) {
      throw new InvalidEventException(
          "body is not valid JSON (starts with '" + head(body) + "')", e);
    }
    if (root == null || !root.isObject()) {
      throw new InvalidEventException("body is not a JSON object");
    }
    return root;
  }

  /**
   * Whether the first byte after JSON whitespace can start a JSON value. A body that cannot is
   * refused without running the parser, whose exception costs as much as decoding a whole event;
   * the others (an array, a string, a number...) get the parser's precise verdict.
   */
  private static boolean startsLikeJson(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return b == '{'
            || b == '['
            || b == '"'
            || b == '-'
            || (b >= '0' && b <= '9')
            || b == 't'
            || b == 'f'
            || b == 'n';
      }
    }
    return true;
  }

  private static String head(byte[] body) {
    return new String(body, 0, Math.min(body.length, 60), StandardCharsets.UTF_8);
  }
}
