package dev.onceonly.api;

/**
 * An event that says which rows its effect locks first, such as a customer's balance. Messages
 * sharing a transaction are applied in the order of this key (then the message key), so that two
 * transactions touching the same rows take their locks in the same order and queue instead of
 * deadlocking. Without it messages are ordered by their message key.
 */
public interface LockOrdered {

  /** The key of the rows the effect locks, e.g. {@code customerId}. */
  String lockKey();
}
