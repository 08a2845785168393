package dev.onceonly.internal.processing;

import java.util.LinkedHashSet;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Work that waits until a committer handed on every decision of its transaction: the committer
 * completes each message's stage in turn, and what each completion starts (an ack) may be done once
 * for all of them (one ack covering the batch, {@code AckWindow}). Outside a committer's hand-over
 * nothing waits.
 */
public final class AfterBatch implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(AfterBatch.class);
  private static final ThreadLocal<Set<Runnable>> PENDING = new ThreadLocal<>();
  private static final AfterBatch NESTED = new AfterBatch(false);

  private final boolean outer;

  private AfterBatch(boolean outer) {
    this.outer = outer;
  }

  /** Starts a hand-over on this thread; {@link #close} runs what waited for it. */
  public static AfterBatch open() {
    if (PENDING.get() != null) {
      return NESTED;
    }
    PENDING.set(new LinkedHashSet<>());
    return new AfterBatch(true);
  }

  /**
   * Runs {@code work} at the end of this thread's hand-over, once however often it is passed (the
   * same object), and answers true; outside a hand-over answers false and runs nothing.
   */
  public static boolean defer(Runnable work) {
    Set<Runnable> pending = PENDING.get();
    if (pending == null) {
      return false;
    }
    pending.add(work);
    return true;
  }

  @Override
  public void close() {
    if (!outer) {
      return;
    }
    Set<Runnable> pending = PENDING.get();
    PENDING.remove();
    for (Runnable work : pending) {
      try {
        work.run();
      } catch (RuntimeException e) {
        LOG.errorf(e, "work after a batch failed");
      }
    }
  }
}
