package dev.onceonly.internal.processing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.onceonly.internal.catalog.Specs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The group commit's queue without a database: who waits joins the next transaction, no transaction
 * exceeds its maximum, each caller gets its own decision, a failed transaction fails only its own
 * callers.
 */
class GroupCommitBatcherTest {

  private final List<List<String>> transactions = new CopyOnWriteArrayList<>();
  private final CountDownLatch firstEntered = new CountDownLatch(1);
  private final CountDownLatch releaseFirst = new CountDownLatch(1);
  private GroupCommit.Batcher batcher;

  @AfterEach
  void stop() {
    releaseFirst.countDown();
    if (batcher != null) {
      batcher.close();
    }
  }

  /** Records each transaction's keys; holds the first until released; answers per key. */
  private List<Decision> recordingTransaction(List<Submission> batch) {
    List<String> keys = batch.stream().map(GroupCommitBatcherTest::key).toList();
    transactions.add(keys);
    if (transactions.size() == 1) {
      firstEntered.countDown();
      awaitLatch(releaseFirst);
    }
    if (keys.contains("bad")) {
      throw new IllegalStateException("transaction of " + keys + " failed");
    }
    return batch.stream().map(s -> Decision.of(outcomeFor(key(s)))).toList();
  }

  @Test
  void messagesThatWaitWhileATransactionRunsShareTheNextOne() throws Exception {
    batcher = new GroupCommit.Batcher(1, 16, this::recordingTransaction);
    List<Future<Verdict>> submitted = firstHeldWhileFiveMoreQueue();

    for (int i = 0; i <= 5; i++) {
      assertThat(submitted.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(outcomeFor("k" + i));
    }
    assertThat(transactions).hasSize(2);
    assertThat(transactions.get(0)).containsExactly("k0");
    assertThat(transactions.get(1)).containsExactlyInAnyOrder("k1", "k2", "k3", "k4", "k5");
  }

  @Test
  void noTransactionTakesMoreThanTheMaximum() throws Exception {
    batcher = new GroupCommit.Batcher(1, 2, this::recordingTransaction);
    for (Future<Verdict> f : firstHeldWhileFiveMoreQueue()) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertThat(transactions).extracting(List::size).containsExactly(1, 2, 2, 1);
  }

  /**
   * When messages trickle in, a committer that waited only for one more ran transactions of two: it
   * waits, within the linger, until a quarter of the maximum is there.
   */
  @Test
  void aCommitterThatFindsFewMessagesLingersUntilAQuarterOfTheMaximumWaits() throws Exception {
    batcher = new GroupCommit.Batcher(1, 16, Duration.ofSeconds(10), this::recordingTransaction);
    releaseFirst.countDown();
    List<Future<Verdict>> submitted = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      submitted.add(submit("k" + i));
      awaitQueued(0); // taken by the committer, which lingers for more
    }
    assertThat(submitted).noneMatch(Future::isDone);
    assertThat(transactions).isEmpty();

    submitted.add(submit("k3"));

    for (int i = 0; i < 4; i++) {
      assertThat(submitted.get(i).get(5, TimeUnit.SECONDS)).isEqualTo(outcomeFor("k" + i));
    }
    assertThat(transactions).containsExactly(List.of("k0", "k1", "k2", "k3"));
  }

  @Test
  void aLoneMessageGoesWhenTheLingerIsOver() throws Exception {
    batcher = new GroupCommit.Batcher(1, 16, Duration.ofMillis(50), this::recordingTransaction);
    releaseFirst.countDown();

    assertThat(submit("k0").get(5, TimeUnit.SECONDS)).isEqualTo(outcomeFor("k0"));
    assertThat(transactions).containsExactly(List.of("k0"));
  }

  @Test
  void aFailedTransactionFailsOnlyItsOwnMessages() throws Exception {
    batcher = new GroupCommit.Batcher(1, 16, this::recordingTransaction);
    Future<Verdict> first = submit("k0");
    awaitLatch(firstEntered);
    releaseFirst.countDown();
    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(outcomeFor("k0"));

    Future<Verdict> bad = submit("bad");
    assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(IllegalStateException.class)
        .hasStackTraceContaining("transaction of [bad] failed");
    assertThat(submit("k7").get(10, TimeUnit.SECONDS)).isEqualTo(outcomeFor("k7"));
  }

  @Test
  void aFailureDecidedForOneMessageIsThrownToItsCallerOnly() throws Exception {
    Function<List<Submission>, List<Decision>> transaction =
        batch ->
            batch.stream()
                .map(
                    s ->
                        key(s).equals("poison")
                            ? Decision.failed(new IllegalArgumentException("poison"))
                            : Decision.of(Verdict.APPLIED))
                .toList();
    batcher = new GroupCommit.Batcher(2, 16, transaction);

    assertThatThrownBy(() -> submit("poison").get(10, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(IllegalArgumentException.class);
    assertThat(submit("fine").get(10, TimeUnit.SECONDS)).isEqualTo(Verdict.APPLIED);
  }

  @Test
  void afterCloseMessagesAreDecidedAtOnceOnTheCallersThread() {
    List<String> threads = new CopyOnWriteArrayList<>();
    batcher =
        new GroupCommit.Batcher(
            1,
            16,
            batch -> {
              threads.add(Thread.currentThread().getName());
              return batch.stream().map(s -> Decision.of(Verdict.APPLIED)).toList();
            });
    batcher.close();

    assertThat(batcher.submit(submission("late")).join().verdictOrThrow())
        .isEqualTo(Verdict.APPLIED);
    assertThat(threads).containsExactly(Thread.currentThread().getName());
  }

  @Test
  void aMessageSubmittedWhileTheBatcherClosesIsStillDecided() throws Exception {
    batcher = new GroupCommit.Batcher(2, 16, this::recordingTransaction);
    releaseFirst.countDown();
    CountDownLatch inSubmit = new CountDownLatch(1);
    CountDownLatch letItQueue = new CountDownLatch(1);
    batcher.beforeQueueing(
        () -> {
          inSubmit.countDown();
          awaitLatch(letItQueue);
        });
    CompletableFuture<Future<Verdict>> submitted =
        CompletableFuture.supplyAsync(() -> submit("racing"));
    assertThat(inSubmit.await(10, TimeUnit.SECONDS)).isTrue();

    // The service stops while that submitter sits between its look at the flag and its queueing:
    // the close either waits for it (parked on a lock) or, as it did before, has already let the
    // committers go, and the message queued after them was never decided.
    Thread closer = new Thread(batcher::close, "closer");
    closer.start();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> !closer.isAlive() || LockSupport.getBlocker(closer) != null);
    letItQueue.countDown();

    assertThat(submitted.get(10, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS))
        .isEqualTo(outcomeFor("racing"));
    closer.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(closer.isAlive()).isFalse();
  }

  @Test
  void refusesAZeroSizedPoolOrBatch() {
    assertThatThrownBy(() -> new GroupCommit.Batcher(0, 16, b -> List.of()))
        .hasMessageContaining("quarkus.onceonly.batch.committers");
    assertThatThrownBy(() -> new GroupCommit.Batcher(1, 0, b -> List.of()))
        .hasMessageContaining("max-messages");
  }

  /** k0 enters the first transaction and is held there while k1..k5 queue; then it is let go. */
  private List<Future<Verdict>> firstHeldWhileFiveMoreQueue() {
    List<Future<Verdict>> submitted = new ArrayList<>();
    submitted.add(submit("k0"));
    awaitLatch(firstEntered);
    for (int i = 1; i <= 5; i++) {
      submitted.add(submit("k" + i));
    }
    awaitQueued(5);
    releaseFirst.countDown();
    return submitted;
  }

  private Future<Verdict> submit(String key) {
    return batcher.submit(submission(key)).thenApply(Decision::verdictOrThrow);
  }

  private void awaitQueued(int n) {
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> batcher.waiting() == n);
  }

  private static Submission submission(String key) {
    return Specs.submission(key);
  }

  private static String key(Submission s) {
    return s.payload();
  }

  private static Verdict outcomeFor(String key) {
    return key.hashCode() % 2 == 0 ? Verdict.APPLIED : Verdict.DUPLICATE;
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("latch not released within 10 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
