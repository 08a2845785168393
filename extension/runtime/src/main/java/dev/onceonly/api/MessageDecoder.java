package dev.onceonly.api;

/**
 * Turns a message into an event of type {@code E} with its key, date and lock order, for a consumer
 * whose events the default (Jackson into the event type) cannot read as they are: several event
 * types on one queue told apart by routing key, a contract with rules of its own. A bean, named by
 * {@link OnceOnlyConsumer#decoder()}. Runs on the messaging connector's thread: it must not block.
 *
 * @param <E> the handler's event type
 */
public interface MessageDecoder<E> {

  /**
   * Decodes one message, or refuses it with the reason it goes to the dead-letter queue with.
   *
   * @throws InvalidMessageException when the message is not a valid event
   */
  Decoded<E> decode(IncomingMessage message) throws InvalidMessageException;
}
