package dev.onceonly.api;

/**
 * An event that names its own message key: the namespaced producer-given identity of one effect,
 * such as {@code order-completed:9912}. Without it the key comes from the consumer's key settings
 * ({@code quarkus.onceonly.consumers."<name>".key.header}, the AMQP {@code message-id} by default,
 * or {@code key.field}). Never a broker delivery id or an offset, which change when a message is
 * redelivered, mirrored or replayed.
 */
public interface Keyed {

  /** The message key; 1 to 500 characters. */
  String messageKey();
}
