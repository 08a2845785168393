package dev.onceonly.relay.destination.http;

import dev.onceonly.relay.config.DestinationConfig.SigningConfig;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a call the way the Standard Webhooks specification says, so that a receiver can check where
 * it comes from and de-duplicate by id: {@code webhook-id}, {@code webhook-timestamp} (the
 * attempt's time in seconds) and {@code webhook-signature}, a space-separated {@code v1,<base64
 * HMAC-SHA256 of "<id>.<timestamp>.<body>">} per secret (two during a rotation).
 *
 * <p>The id is {@code msg_} and the base64url SHA-256 of the row's idempotency key: the same on
 * every attempt, and free of the {@code .} the signed content uses as separator (the key holds
 * message keys a producer chose, and the specification warns against ids with dots in them).
 * Secrets never leave this class: {@link #toString} counts them.
 */
final class WebhookSigner {

  static final String PREFIX = "whsec_";
  static final String ID = "webhook-id";
  static final String TIMESTAMP = "webhook-timestamp";
  static final String SIGNATURE = "webhook-signature";

  private final List<SecretKeySpec> keys;

  private WebhookSigner(List<SecretKeySpec> keys) {
    this.keys = List.copyOf(keys);
  }

  /** The signer {@code signing} asks for, or empty when signing is off. */
  static Optional<WebhookSigner> of(SigningConfig signing, UnaryOperator<String> key) {
    boolean on = signing.enabled().orElse(signing.secret().isPresent());
    if (!on) {
      return Optional.empty();
    }
    List<SecretKeySpec> keys = new ArrayList<>();
    keys.add(
        secret(
            signing
                .secret()
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            key.apply("secret")
                                + " is required when signing is enabled (usually from a Secret)")),
            key.apply("secret")));
    signing.previousSecret().ifPresent(s -> keys.add(secret(s, key.apply("previous-secret"))));
    return Optional.of(new WebhookSigner(keys));
  }

  /** The three headers for one attempt at {@code body}, made at {@code epochSeconds}. */
  Map<String, String> headers(String idempotencyKey, long epochSeconds, String body) {
    String id = id(idempotencyKey);
    String timestamp = Long.toString(epochSeconds);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(ID, id);
    headers.put(TIMESTAMP, timestamp);
    headers.put(SIGNATURE, signature(id, timestamp, body));
    return headers;
  }

  /** The {@code webhook-signature} value: {@code v1,<base64 HMAC>} per secret, space-separated. */
  String signature(String id, String timestamp, String body) {
    byte[] content = (id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8);
    StringBuilder signatures = new StringBuilder();
    for (SecretKeySpec spec : keys) {
      if (signatures.length() > 0) {
        signatures.append(' ');
      }
      signatures.append("v1,").append(Base64.getEncoder().encodeToString(hmac(spec, content)));
    }
    return signatures.toString();
  }

  /** {@code msg_} + the base64url SHA-256 of the idempotency key: stable, and without dots. */
  static String id(String idempotencyKey) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(idempotencyKey.getBytes(StandardCharsets.UTF_8));
      return "msg_" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private static byte[] hmac(SecretKeySpec key, byte[] content) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(content);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }

  private static SecretKeySpec secret(String text, String key) {
    String value = text.strip();
    if (!value.startsWith(PREFIX)) {
      throw new IllegalArgumentException(
          key + " must be " + PREFIX + "<base64 of the secret's bytes> (Standard Webhooks)");
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(value.substring(PREFIX.length()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + " is not base64 after " + PREFIX);
    }
    if (bytes.length < 24 || bytes.length > 64) {
      throw new IllegalArgumentException(
          key + " must hold 24 to 64 bytes (Standard Webhooks), holds " + bytes.length);
    }
    return new SecretKeySpec(bytes, "HmacSHA256");
  }

  @Override
  public String toString() {
    return "Standard Webhooks, " + keys.size() + (keys.size() == 1 ? " secret" : " secrets");
  }
}
