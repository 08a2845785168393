package dev.onceonly.api;

/**
 * Queues calls to the outside world in the caller's database transaction: a row of the outbox,
 * which commits or rolls back with the effect that caused it, and which the relay delivers later to
 * its destination with the row's idempotency key (the same key on every attempt, so a retried call
 * never becomes a second e-mail or a second payout). Inject it anywhere: in a handler, or in a
 * {@code @Transactional} method that saves an order and queues its confirmation.
 *
 * <p>Every idempotency key is taken for good (kept {@code relay.retention.key-window}, 400 days,
 * after the delivered row is gone): queueing a key taken before writes nothing and answers false,
 * so a message replayed weeks later cannot queue a second call.
 */
public interface Outbox {

  /**
   * Queues a call to {@code destination} caused by the message a handler is deciding: the
   * idempotency key is derived from the destination, the consumer and the message key, and the row
   * carries the message's trace.
   *
   * @param payload the body the relay sends (any value Jackson writes as JSON)
   * @param orderingKey rows with the same ordering key are delivered one after another, in order;
   *     null for none
   * @return false when the key was taken already: the call was queued before
   * @throws IllegalStateException outside a transaction
   */
  boolean enqueue(String destination, Delivery cause, Object payload, String orderingKey);

  /**
   * Queues {@code message} in the caller's transaction.
   *
   * @return false when its idempotency key was taken already
   * @throws IllegalStateException outside a transaction
   */
  boolean enqueue(OutboxMessage message);
}
