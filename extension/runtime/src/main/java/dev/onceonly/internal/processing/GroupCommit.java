package dev.onceonly.internal.processing;

import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.metrics.ConsumerMetrics;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Group commit: the threads that receive messages queue them here and return; a fixed number of
 * committer threads each take every message waiting, up to a maximum, and run them in one
 * transaction. A committer that found only a few waits a moment (the linger, 1 ms) until a quarter
 * of the maximum is there. Under light load a transaction holds one message (or what came within
 * the linger); under load transactions grow by themselves, and the commit, the round trips of begin
 * and commit and the JTA bookkeeping are shared. A message's stage completes only after its
 * transaction committed, so the ack still follows the commit; the acks that the stages of one
 * transaction start go out together once all of them completed ({@link AfterBatch}).
 */
@Singleton
public class GroupCommit {

  private static final Logger LOG = Logger.getLogger(GroupCommit.class);
  private static final long IDLE_POLL_MS = 200;

  /** Span attribute: how many messages shared the message's claim transaction. */
  static final AttributeKey<Long> BATCH_ATTRIBUTE = AttributeKey.longKey("onceonly.batch.messages");

  private final Batcher batcher;

  public GroupCommit(
      IdempotentProcessor processor, OnceOnlyConfig config, ConsumerMetrics metrics) {
    OnceOnlyConfig.Batch batch = config.batch();
    this.batcher =
        new Batcher(
            batch.committers(),
            batch.maxMessages(),
            batch.linger(),
            submissions -> {
              metrics.batch(submissions.size());
              for (Submission s : submissions) {
                Span.fromContext(s.trace()).setAttribute(BATCH_ATTRIBUTE, submissions.size());
              }
              return processor.processAll(submissions);
            });
  }

  /**
   * Queues one message for the next transaction; the stage completes, on the committer's thread,
   * once that transaction committed (or failed: then the decision carries the failure).
   */
  public CompletionStage<Decision> decide(Submission submission) {
    return batcher.submit(submission);
  }

  @PreDestroy
  void stop() {
    batcher.close();
  }

  /**
   * The queue and its committer threads, apart from CDI so that tests can drive it with any
   * transaction function. {@code transaction} gets the batch and returns one decision per message,
   * in order.
   */
  public static final class Batcher implements AutoCloseable {

    private final LinkedBlockingQueue<Waiting> queue = new LinkedBlockingQueue<>();
    private final Function<List<Submission>, List<Decision>> transaction;
    private final int maxMessages;
    private final long lingerNanos;
    private final int lingerBelow;
    private final List<Thread> committers = new ArrayList<>();

    /**
     * Submitters hold it shared while they check {@link #closing} and queue, {@link #close} takes
     * it exclusively to set it: a message is either queued before the committers are told to finish
     * (and they drain the queue before they stop) or sees the flag and is decided by its submitter.
     * Without it, a message queued just after the last committer left stayed neither acked nor
     * nacked.
     */
    private final ReadWriteLock closingLock = new ReentrantReadWriteLock();

    private volatile boolean closing;
    private Runnable beforeQueueing = () -> {};

    public Batcher(
        int committers, int maxMessages, Function<List<Submission>, List<Decision>> transaction) {
      this(committers, maxMessages, Duration.ZERO, transaction);
    }

    /**
     * {@code linger}: how long, at most, a committer that found fewer than a quarter of {@code
     * maxMessages} waiting waits for that many before it begins; zero never waits. (Waiting for one
     * more only, it ran small transactions whenever messages trickled in: with 10 % invalid
     * messages among healthy ones, claim batches fell from 15 to as few as 9 messages and the
     * database committed up to half as often again; chaos scenario 7.)
     */
    public Batcher(
        int committers,
        int maxMessages,
        Duration linger,
        Function<List<Submission>, List<Decision>> transaction) {
      if (committers < 1 || maxMessages < 1) {
        throw new IllegalArgumentException(
            "quarkus.onceonly.batch.committers and max-messages must be at least 1, got "
                + committers
                + " and "
                + maxMessages);
      }
      this.transaction = transaction;
      this.maxMessages = maxMessages;
      this.lingerNanos = linger.toNanos();
      this.lingerBelow = Math.max(2, maxMessages / 4);
      for (int i = 0; i < committers; i++) {
        Thread t = new Thread(this::commitLoop, "onceonly-committer-" + i);
        t.setDaemon(true);
        this.committers.add(t);
        t.start();
      }
    }

    /**
     * Queues a message; its decision completes on a committer's thread. After {@link #close} a
     * message is decided at once on the caller's own thread, so none is refused while the service
     * stops (the listener's caller is the connector's event loop, which that one transaction holds
     * up; the schema gate has paused the channels by then, so only messages already prefetched
     * come).
     */
    public CompletableFuture<Decision> submit(Submission submission) {
      closingLock.readLock().lock();
      try {
        if (!closing) {
          beforeQueueing.run();
          CompletableFuture<Decision> decision = new CompletableFuture<>();
          queue.add(new Waiting(submission, decision));
          return decision;
        }
      } finally {
        closingLock.readLock().unlock();
      }
      return CompletableFuture.completedFuture(decideAlone(submission));
    }

    /** Runs between a submitter's look at {@link #closing} and its queueing (tests widen it). */
    void beforeQueueing(Runnable hook) {
      this.beforeQueueing = hook;
    }

    /** Messages queued and not yet taken by a committer. */
    public int waiting() {
      return queue.size();
    }

    /** Stops taking new batches once the queue is empty; waits for the committers to finish. */
    @Override
    public void close() {
      closingLock.writeLock().lock();
      try {
        closing = true;
      } finally {
        closingLock.writeLock().unlock();
      }
      for (Thread t : committers) {
        try {
          t.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    private void commitLoop() {
      List<Waiting> batch = new ArrayList<>(maxMessages);
      while (true) {
        Waiting first;
        try {
          first = queue.poll(IDLE_POLL_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (first == null) {
          if (closing && queue.isEmpty()) {
            return;
          }
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, maxMessages - 1);
        if (batch.size() < lingerBelow && lingerNanos > 0) {
          // A few messages only: give the next ones a moment to join (commit_delay, in effect).
          long deadline = System.nanoTime() + lingerNanos;
          while (batch.size() < lingerBelow) {
            Waiting next;
            try {
              next = queue.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              next = null;
            }
            if (next == null) {
              break;
            }
            batch.add(next);
            queue.drainTo(batch, maxMessages - batch.size());
          }
        }
        run(batch);
        batch.clear();
      }
    }

    private void run(List<Waiting> batch) {
      try {
        List<Decision> decisions =
            transaction.apply(batch.stream().map(Waiting::submission).toList());
        try (AfterBatch handOver = AfterBatch.open()) {
          for (int i = 0; i < batch.size(); i++) {
            batch.get(i).decision().complete(decisions.get(i));
          }
        }
      } catch (RuntimeException e) {
        LOG.errorf(e, "a committer failed on %d messages", batch.size());
        for (Waiting w : batch) {
          w.decision().complete(Decision.failed(e));
        }
      } catch (Error e) {
        for (Waiting w : batch) {
          w.decision().completeExceptionally(e);
        }
        throw e;
      }
    }

    private Decision decideAlone(Submission submission) {
      try {
        return transaction.apply(List.of(submission)).get(0);
      } catch (RuntimeException e) {
        return Decision.failed(e);
      }
    }

    private record Waiting(Submission submission, CompletableFuture<Decision> decision) {}
  }
}
