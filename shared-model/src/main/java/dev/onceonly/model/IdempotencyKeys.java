package dev.onceonly.model;

/**
 * Derives the {@code Idempotency-Key} of an outbox row from what caused it: the consumer, the
 * message key and the kind of effect. The same inputs always give the same key, so a re-run of the
 * same message can never create a second provider effect, and the key survives retries, relays and
 * restarts. Keys are at most {@value #MAX_LENGTH} characters (the limit common provider APIs
 * accept); longer natural keys are shortened to a readable prefix plus a SHA-256 of the whole.
 */
public final class IdempotencyKeys {

  public static final int MAX_LENGTH = 255;

  private static final String PREFIX = "oo1";

  private IdempotencyKeys() {}

  public static String derive(OutboxKind kind, String consumer, String messageKey) {
    return derive(kind.value(), consumer, messageKey);
  }

  /**
   * The key of a call to {@code destination} caused by {@code messageKey} of {@code source} (a
   * consumer's name, or a name the writer chose): {@code oo1:<destination>:<source>:<key>}.
   */
  public static String derive(String destination, String source, String messageKey) {
    requireText(destination, "destination");
    requireText(source, "consumer");
    requireText(messageKey, "messageKey");
    String natural = PREFIX + ":" + destination + ":" + source + ":" + messageKey;
    if (natural.length() <= MAX_LENGTH) {
      return natural;
    }
    String hash = PayloadFingerprint.sha256Hex(natural);
    return natural.substring(0, MAX_LENGTH - hash.length() - 1) + "~" + hash;
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }
}
