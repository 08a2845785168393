package dev.onceonly.internal.intake;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.model.PayloadFingerprint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Reads message bodies as JSON, strictly: floats as exact decimals (no overflow to Infinity, which
 * cannot be fingerprinted), and anything after the JSON object makes the body invalid rather than
 * silently ignored. A body that cannot start a JSON value is refused without running the parser,
 * whose exception costs as much as decoding a whole event.
 */
public final class JsonBodies {

  static final ObjectMapper STRICT =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private JsonBodies() {}

  /** The body as one JSON object; the reason it is not one otherwise. */
  public static JsonNode parse(byte[] body) throws InvalidMessageException {
    if (body == null || body.length == 0) {
      throw new InvalidMessageException("empty body: expected a JSON object");
    }
    if (!startsLikeJson(body)) {
      throw new InvalidMessageException(
          "body is not valid JSON (starts with '" + head(body) + "')");
    }
    JsonNode root;
    try {
      root = STRICT.readTree(body);
    } catch (IOException e) {
      throw new InvalidMessageException(
          "body is not valid JSON (starts with '" + head(body) + "')", e);
    }
    if (root == null || !root.isObject()) {
      throw new InvalidMessageException("body is not a JSON object");
    }
    return root;
  }

  /**
   * The fingerprint of a body: SHA-256 over its canonical JSON (field order, spacing and {@code
   * 100} against {@code 100.0} do not count), or over its bytes when it was never read as JSON.
   */
  public static String fingerprint(JsonNode json, byte[] body) {
    if (json != null) {
      return PayloadFingerprint.sha256(json);
    }
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
    }
  }

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
