package dev.onceonly.sandbox.provider;

import dev.onceonly.sandbox.config.SandboxConfig;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a webhook call as a receiver following the Standard Webhooks specification does: the three
 * headers are there, {@code webhook-timestamp} is within the tolerance of this clock, and one of
 * the {@code v1,<base64>} signatures in {@code webhook-signature} is the HMAC-SHA256 of {@code
 * "<webhook-id>.<webhook-timestamp>.<body>"} with one of the configured secrets (compared in
 * constant time). A bad secret in the configuration stops the start.
 */
@Startup
@Singleton
public class WebhookVerifier {

  /** Why a call is refused: the status and a sentence for the problem document. */
  public record Refusal(int status, String slug, String detail) {}

  private final List<byte[]> secrets = new ArrayList<>();
  private final long toleranceSeconds;

  public WebhookVerifier(SandboxConfig config) {
    for (String secret : config.webhooks().secrets()) {
      secrets.add(decode(secret.strip()));
    }
    this.toleranceSeconds = config.webhooks().tolerance().toSeconds();
  }

  /** Empty when the call is authentic and fresh; otherwise why not. */
  public Optional<Refusal> check(
      String id, String timestamp, String signatures, byte[] body, long nowEpochSeconds) {
    if (blank(id) || blank(timestamp) || blank(signatures)) {
      return Optional.of(
          new Refusal(
              400,
              "missing-webhook-headers",
              "Send webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks)."));
    }
    long sent;
    try {
      sent = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      return Optional.of(
          new Refusal(400, "bad-webhook-timestamp", "webhook-timestamp must be epoch seconds."));
    }
    if (Math.abs(nowEpochSeconds - sent) > toleranceSeconds) {
      return Optional.of(
          new Refusal(
              401,
              "stale-webhook",
              "webhook-timestamp is more than "
                  + toleranceSeconds
                  + " s from the receiver's clock."));
    }
    byte[] head = (id + "." + timestamp.strip() + ".").getBytes(StandardCharsets.UTF_8);
    for (byte[] secret : secrets) {
      byte[] expected = hmac(secret, head, body);
      for (String signature : signatures.trim().split("\\s+")) {
        int comma = signature.indexOf(',');
        if (comma > 0 && signature.substring(0, comma).equals("v1")) {
          byte[] given;
          try {
            given = Base64.getDecoder().decode(signature.substring(comma + 1));
          } catch (IllegalArgumentException e) {
            continue;
          }
          if (MessageDigest.isEqual(expected, given)) {
            return Optional.empty();
          }
        }
      }
    }
    return Optional.of(
        new Refusal(401, "bad-webhook-signature", "No v1 signature matches a receiver secret."));
  }

  private static byte[] hmac(byte[] secret, byte[] head, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(head);
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }

  private static byte[] decode(String secret) {
    if (!secret.startsWith("whsec_")) {
      throw new IllegalArgumentException("sandbox.webhooks.secrets: each must be whsec_<base64>");
    }
    try {
      return Base64.getDecoder().decode(secret.substring("whsec_".length()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("sandbox.webhooks.secrets: not base64 after whsec_");
    }
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
