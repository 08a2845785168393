package dev.onceonly.internal.intake;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.model.InvalidEventException;
import dev.onceonly.model.JsonObjects;
import dev.onceonly.model.PayloadFingerprint;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Message bodies as JSON, read strictly ({@link JsonObjects}), and their fingerprints. */
public final class JsonBodies {

  private JsonBodies() {}

  /** The body as one JSON object; the reason it is not one otherwise ({@link JsonObjects}). */
  public static JsonNode parse(byte[] body) throws InvalidMessageException {
    try {
      return JsonObjects.parse(body);
    } catch (InvalidEventException e) {
      throw new InvalidMessageException(e.getMessage(), e.getCause());
    }
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
}
