package dev.onceonly.api;

import java.sql.SQLException;
import java.time.Instant;

/** The message a handler is given, as the platform decided it. */
public interface Delivery {

  /** The consumer's name ({@link OnceOnlyConsumer#name()}). */
  String consumer();

  /** The producer-given key the message was claimed by; never a broker delivery id or offset. */
  String messageKey();

  /** When the event happened: it decides the message's date window and its claim's day. */
  Instant occurredAt();

  /**
   * {@code true} when the message was claimed in this transaction; {@code false} when no claim was
   * taken: the event is older than the claim window (its effect's natural keys decide), or the
   * consumer takes none ({@link OnceOnlyConsumer#claim()}).
   */
  boolean claimed();

  /**
   * Whether this consumer already rejected this key with {@code reason} ({@link Outcome#rejected}).
   * A rejection is a natural key too: a copy of a rejected message dated another day must not apply
   * once circumstances changed.
   */
  boolean rejectedBefore(String reason) throws SQLException;
}
