package dev.onceonly.relay.completion;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * Finished attempts waiting to be written, and the thread that writes them: each pass takes every
 * completion that has arrived (up to a batch) and writes them in one transaction. Two passes start
 * at least {@code coalesce} apart unless the first filled its batch: under a trickle the next
 * completions gather for one write instead of one each, and under load a write that itself took
 * that long is followed at once (waiting after it as well, the writer slept about as long as it
 * wrote, and 200,000-row drains ran 5,360 to 5,990 rows/s instead of 6,440 to 7,050). Writing runs
 * beside leasing, so neither waits for the other's round trips.
 *
 * <p>Nothing handed over is lost at shutdown: {@link #stop} writes what is still queued, and a
 * completion added after that (a call that ended while the relay was stopping) is written at once
 * on the adding thread, so its row never waits for its lease to expire.
 */
public final class CompletionQueue {

  private static final Logger LOG = Logger.getLogger(CompletionQueue.class);

  /** How the writer waits out the rest of a coalescing interval; a test replaces it. */
  interface Pause {
    void nanos(long nanos) throws InterruptedException;
  }

  private final BlockingQueue<Completion> queue = new LinkedBlockingQueue<>();

  /** Completions added and not yet written (queued or in the batch being written). */
  private final AtomicInteger unwritten = new AtomicInteger();

  private final Consumer<List<Completion>> writer;
  private final int maxBatch;
  private final long coalesceNanos;
  private final String name;
  private final Runnable afterWrite;
  private final LongSupplier nanoTime;
  private final Pause pause;

  /**
   * Adds hold it shared, {@link #stop} exclusively: an add is either queued before the final drain
   * or sees {@link #stopped} and writes by itself.
   */
  private final ReadWriteLock handover = new ReentrantReadWriteLock();

  private boolean stopped; // guarded by handover
  private volatile boolean running;
  private Thread thread;

  public CompletionQueue(
      Consumer<List<Completion>> writer,
      int maxBatch,
      Duration coalesce,
      String name,
      Runnable afterWrite) {
    this(
        writer,
        maxBatch,
        coalesce,
        name,
        afterWrite,
        System::nanoTime,
        TimeUnit.NANOSECONDS::sleep);
  }

  CompletionQueue(
      Consumer<List<Completion>> writer,
      int maxBatch,
      Duration coalesce,
      String name,
      Runnable afterWrite,
      LongSupplier nanoTime,
      Pause pause) {
    this.writer = writer;
    this.maxBatch = maxBatch;
    this.coalesceNanos = coalesce.toNanos();
    this.name = name;
    this.afterWrite = afterWrite;
    this.nanoTime = nanoTime;
    this.pause = pause;
  }

  /** Hands a finished attempt over for writing (on the writer thread, or at once once stopped). */
  public void add(Completion completion) {
    handover.readLock().lock();
    try {
      if (!stopped) {
        unwritten.incrementAndGet();
        queue.add(completion);
        return;
      }
    } finally {
      handover.readLock().unlock();
    }
    writer.accept(List.of(completion));
  }

  /**
   * Rows whose call has finished but whose outcome is not written yet. They still hold a lease, so
   * the poller counts them against its room: when writing falls behind, leasing waits.
   */
  public int unwritten() {
    return unwritten.get();
  }

  public void start() {
    running = true;
    thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Stops the writer thread, then writes whatever is still queued, plus {@code last}; completions
   * added from now on are written by the thread that adds them.
   */
  public void stop(List<Completion> last) {
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
    handover.writeLock().lock();
    try {
      stopped = true;
      queue.drainTo(rest);
    } finally {
      handover.writeLock().unlock();
    }
    if (!rest.isEmpty()) {
      writer.accept(rest);
    }
    unwritten.set(0);
  }

  private void run() {
    while (running) {
      try {
        pass(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.warnf(e, "%s: writing completions failed", name);
      }
    }
  }

  /**
   * One pass: waits up to {@code timeout} for a completion, writes it with every other one waiting
   * (up to a batch), then waits out the rest of the coalescing interval if the batch was not full.
   *
   * @return how many completions were written
   */
  int pass(long timeout, TimeUnit unit) throws InterruptedException {
    Completion first = queue.poll(timeout, unit);
    if (first == null) {
      return 0;
    }
    long started = nanoTime.getAsLong();
    List<Completion> batch = new ArrayList<>(maxBatch);
    batch.add(first);
    queue.drainTo(batch, maxBatch - 1);
    try {
      writer.accept(batch);
    } finally {
      unwritten.addAndGet(-batch.size());
    }
    afterWrite.run();
    long rest = coalesceNanos - (nanoTime.getAsLong() - started);
    if (batch.size() < maxBatch && rest > 0) {
      pause.nanos(rest);
    }
    return batch.size();
  }
}
