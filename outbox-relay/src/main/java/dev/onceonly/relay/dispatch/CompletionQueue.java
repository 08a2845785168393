package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.lease.Completion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * Finished attempts waiting to be written, and the thread that writes them: each pass takes every
 * completion that has arrived (up to a batch) and hands them to the {@link Completer} in one
 * transaction; after a pass that did not fill a batch it waits {@code coalesce} before the next.
 * Writing runs beside leasing, so neither waits for the other's round trips.
 */
final class CompletionQueue {

  private static final Logger LOG = Logger.getLogger(CompletionQueue.class);

  private final BlockingQueue<Completion> queue = new LinkedBlockingQueue<>();

  /** Completions added and not yet written (queued or in the batch being written). */
  private final AtomicInteger unwritten = new AtomicInteger();

  private final Completer completer;
  private final int maxBatch;
  private final long coalesceNanos;
  private final String name;
  private final Runnable afterWrite;
  private volatile boolean running;
  private Thread thread;

  CompletionQueue(
      Completer completer, int maxBatch, Duration coalesce, String name, Runnable afterWrite) {
    this.completer = completer;
    this.maxBatch = maxBatch;
    this.coalesceNanos = coalesce.toNanos();
    this.name = name;
    this.afterWrite = afterWrite;
  }

  void add(Completion completion) {
    unwritten.incrementAndGet();
    queue.add(completion);
  }

  /**
   * Rows whose call has finished but whose outcome is not written yet. They still hold a lease, so
   * the poller counts them against its room: when writing falls behind, leasing waits.
   */
  int unwritten() {
    return unwritten.get();
  }

  void start() {
    running = true;
    thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops the writer thread, then writes whatever is still queued, plus {@code last}. */
  void stop(List<Completion> last) {
    running = false;
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(TimeUnit.SECONDS.toMillis(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    List<Completion> rest = new ArrayList<>(last);
    queue.drainTo(rest);
    completer.complete(rest);
    unwritten.set(0);
  }

  private void run() {
    while (running) {
      try {
        Completion first = queue.poll(1, TimeUnit.SECONDS);
        if (first == null) {
          continue;
        }
        List<Completion> batch = new ArrayList<>(maxBatch);
        batch.add(first);
        queue.drainTo(batch, maxBatch - 1);
        try {
          completer.complete(batch);
        } finally {
          unwritten.addAndGet(-batch.size());
        }
        afterWrite.run();
        if (batch.size() < maxBatch && coalesceNanos > 0) {
          // A trickle: let the next completions gather for one write instead of one each.
          TimeUnit.NANOSECONDS.sleep(coalesceNanos);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.warnf(e, "%s: writing completions failed", name);
      }
    }
  }
}
