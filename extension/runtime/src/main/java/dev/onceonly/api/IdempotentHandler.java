package dev.onceonly.api;

/**
 * The effect of one consumer ({@link OnceOnlyConsumer}). {@link #handle} runs inside the claim's
 * database transaction, only for a message whose claim took (or, for an event older than the claim
 * window, with no claim at all: then {@link Delivery#claimed()} is false and the effect's own
 * natural keys must decide), so a handler never sees a copy its claim caught.
 *
 * <p>What a handler may do: read and write the database through the application's datasource (JDBC,
 * Hibernate ORM, Panache: all join the transaction), and queue calls to the outside world with
 * {@link Outbox}, which commits with the effect. What it must not do: call outside systems itself
 * (a payment API, a mail server, another queue) — the transaction may still roll back, and a
 * redelivery would call again; that is what the outbox is for. A handler that throws rolls back the
 * claim and its effect: the message runs again alone, is requeued once, then dead-lettered.
 *
 * <p>Several messages share one transaction (group commit), applied in a fixed lock order ({@link
 * LockOrdered}), so that two transactions never deadlock on the same rows.
 *
 * @param <E> the event type, decoded from the message body
 */
@FunctionalInterface
public interface IdempotentHandler<E> {

  /**
   * Applies the effect of {@code event}.
   *
   * @return {@link Outcome#APPLIED}; {@link Outcome#DUPLICATE} when the effect's natural key shows
   *     it happened before (under an expired claim, or one dated another day); or {@link
   *     Outcome#rejected} to decide the message without an effect, recorded for operators
   */
  Outcome handle(E event, Delivery delivery) throws Exception;
}
