package dev.onceonly.it.shipping;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Fault injection for CrashBeforeAckIT, off unless {@code shipping.crash-after-commit-of} names an
 * order: the process halts (as kill -9 would end it) right after the transaction that shipped that
 * order committed, before the platform could ack the message.
 */
@ApplicationScoped
public class CrashAfterCommit {

  private final Optional<String> order;
  private final TransactionSynchronizationRegistry transactions;

  public CrashAfterCommit(
      @ConfigProperty(name = "shipping.crash-after-commit-of") Optional<String> order,
      TransactionSynchronizationRegistry transactions) {
    this.order = order;
    this.transactions = transactions;
  }

  void afterCommitOf(String orderId) {
    if (order.isEmpty() || !order.get().equals(orderId)) {
      return;
    }
    transactions.registerInterposedSynchronization(
        new Synchronization() {
          @Override
          public void beforeCompletion() {}

          @Override
          public void afterCompletion(int status) {
            if (status == Status.STATUS_COMMITTED) {
              Runtime.getRuntime().halt(137);
            }
          }
        });
  }
}
