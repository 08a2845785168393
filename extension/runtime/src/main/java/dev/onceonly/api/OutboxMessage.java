package dev.onceonly.api;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One call for the relay to make, built with {@link #to}:
 *
 * <pre>{@code
 * outbox.enqueue(OutboxMessage.to("order-confirmation")
 *     .key("orders", order.id())                 // idempotency key oo1:order-confirmation:orders:<id>
 *     .payload(Map.of("orderId", order.id()))
 *     .notBefore(Instant.now().plus(Duration.ofHours(1)))
 *     .build());
 * }</pre>
 *
 * <p>The idempotency key is given ({@link Builder#idempotencyKey}) or derived from a source and a
 * business key ({@link Builder#key}) or from the message being handled ({@link Builder#causedBy}).
 * One of the three is required: a key made up per call would let a retried request queue the call
 * twice.
 */
public final class OutboxMessage {

  private final String destination;
  private final Object payload;
  private final String idempotencyKey;
  private final String source;
  private final String key;
  private final String orderingKey;
  private final Instant notBefore;

  private OutboxMessage(Builder b) {
    this.destination = b.destination;
    this.payload = b.payload;
    this.idempotencyKey = b.idempotencyKey;
    this.source = b.source;
    this.key = b.key;
    this.orderingKey = b.orderingKey;
    this.notBefore = b.notBefore;
  }

  /** A call to {@code destination}, a name the relay's configuration declares. */
  public static Builder to(String destination) {
    return new Builder(destination);
  }

  public String destination() {
    return destination;
  }

  public Object payload() {
    return payload;
  }

  /** The key given as is, or null when it is derived from {@link #source} and {@link #key}. */
  public String idempotencyKey() {
    return idempotencyKey;
  }

  /** What caused the call: a consumer's name, or a name the caller chose; null with a given key. */
  public String source() {
    return source;
  }

  /** The business key within {@link #source}; null with a given key. */
  public String key() {
    return key;
  }

  public String orderingKey() {
    return orderingKey;
  }

  /** The earliest time the relay may make the call; null for at once. */
  public Instant notBefore() {
    return notBefore;
  }

  /** Builds an {@link OutboxMessage}. */
  public static final class Builder {

    /** Compiled once: {@code String.matches} compiled it again for every outbox row. */
    private static final Pattern DESTINATION = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private final String destination;
    private Object payload;
    private String idempotencyKey;
    private String source;
    private String key;
    private String orderingKey;
    private Instant notBefore;

    private Builder(String destination) {
      if (destination == null || !DESTINATION.matcher(destination).matches()) {
        throw new IllegalArgumentException(
            "a destination is 1 to 64 letters, digits, '.', '_' or '-', was " + destination);
      }
      this.destination = destination;
    }

    /** The body the relay sends: any value Jackson writes as JSON. */
    public Builder payload(Object payload) {
      this.payload = Objects.requireNonNull(payload, "payload");
      return this;
    }

    /** The idempotency key exactly as given (at most 255 characters). */
    public Builder idempotencyKey(String idempotencyKey) {
      this.idempotencyKey = Objects.requireNonNull(idempotencyKey, "idempotencyKey");
      return this;
    }

    /**
     * The idempotency key derived from {@code source} and {@code key}: {@code
     * oo1:<destination>:<source>:<key>}, shortened with a hash beyond 255 characters.
     */
    public Builder key(String source, String key) {
      this.source = Objects.requireNonNull(source, "source");
      this.key = Objects.requireNonNull(key, "key");
      return this;
    }

    /** The idempotency key derived from the message a handler is deciding. */
    public Builder causedBy(Delivery delivery) {
      return key(delivery.consumer(), delivery.messageKey());
    }

    /** Rows with the same ordering key are delivered one after another, in the order queued. */
    public Builder orderingKey(String orderingKey) {
      this.orderingKey = orderingKey;
      return this;
    }

    /** The earliest time the relay may make the call: a reminder in an hour, a payout tomorrow. */
    public Builder notBefore(Instant notBefore) {
      this.notBefore = notBefore;
      return this;
    }

    public OutboxMessage build() {
      if (payload == null) {
        throw new IllegalArgumentException(
            "an outbox message to " + destination + " needs a payload");
      }
      if (idempotencyKey == null && key == null) {
        throw new IllegalArgumentException(
            "an outbox message to "
                + destination
                + " needs an idempotency key: idempotencyKey(..), key(source, key) or"
                + " causedBy(delivery)");
      }
      return new OutboxMessage(this);
    }
  }
}
