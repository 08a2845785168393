package dev.onceonly.relay.completion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The completion writer's pacing, on a fake clock: passes start at least the coalescing interval
 * apart, a write that took that long (or filled its batch) is followed at once, and a completion
 * counts as unwritten (holding room in the poller) until its write is over.
 */
class CompletionQueueTest {

  private static final Duration COALESCE = Duration.ofMillis(5);

  private long now;
  private long writeNanos;
  private final List<Integer> written = new ArrayList<>();
  private final List<Long> pauses = new ArrayList<>();
  private int writesSeenByAfterWrite;

  private CompletionQueue queue(int maxBatch) {
    return new CompletionQueue(
        batch -> {
          written.add(batch.size());
          now += writeNanos;
        },
        maxBatch,
        COALESCE,
        "test-writer",
        () -> writesSeenByAfterWrite = written.size(),
        () -> now,
        nanos -> {
          pauses.add(nanos);
          now += nanos;
        });
  }

  private static Completion completion() {
    return new Completion(
        null, "test-relay", Outcome.DELIVERED, null, null, null, null, null, null, null, true);
  }

  @Test
  void aQuickWriteUnderATrickleWaitsOutTheRestOfTheInterval() throws InterruptedException {
    writeNanos = TimeUnit.MILLISECONDS.toNanos(1);
    CompletionQueue queue = queue(100);
    queue.add(completion());
    queue.add(completion());

    assertThat(queue.pass(0, TimeUnit.MILLISECONDS)).isEqualTo(2);

    assertThat(written).containsExactly(2);
    assertThat(writesSeenByAfterWrite).isEqualTo(1);
    assertThat(pauses).containsExactly(TimeUnit.MILLISECONDS.toNanos(4));
  }

  @Test
  void aWriteThatTookTheIntervalIsFollowedAtOnce() throws InterruptedException {
    writeNanos = TimeUnit.MILLISECONDS.toNanos(7);
    CompletionQueue queue = queue(100);
    for (int i = 0; i < 30; i++) {
      queue.add(completion());
    }

    assertThat(queue.pass(0, TimeUnit.MILLISECONDS)).isEqualTo(30);

    assertThat(pauses).isEmpty();
  }

  @Test
  void aFullBatchIsFollowedAtOnceAndTheRestWaitsForTheNextPass() throws InterruptedException {
    CompletionQueue queue = queue(4);
    for (int i = 0; i < 6; i++) {
      queue.add(completion());
    }

    assertThat(queue.pass(0, TimeUnit.MILLISECONDS)).isEqualTo(4);
    assertThat(pauses).isEmpty();
    assertThat(queue.unwritten()).isEqualTo(2);

    assertThat(queue.pass(0, TimeUnit.MILLISECONDS)).isEqualTo(2);
    assertThat(written).containsExactly(4, 2);
    assertThat(pauses).containsExactly(COALESCE.toNanos());
    assertThat(queue.unwritten()).isZero();
  }

  @Test
  void completionsCountAsUnwrittenUntilTheirWriteIsOver() throws InterruptedException {
    List<Integer> unwrittenDuringWrite = new ArrayList<>();
    CompletionQueue[] holder = new CompletionQueue[1];
    holder[0] =
        new CompletionQueue(
            batch -> unwrittenDuringWrite.add(holder[0].unwritten()),
            100,
            Duration.ZERO,
            "test-writer",
            () -> {},
            () -> now,
            pauses::add);
    holder[0].add(completion());
    holder[0].add(completion());
    holder[0].add(completion());

    holder[0].pass(0, TimeUnit.MILLISECONDS);

    assertThat(unwrittenDuringWrite).containsExactly(3);
    assertThat(holder[0].unwritten()).isZero();
    assertThat(pauses).isEmpty();
  }

  @Test
  void aFailedWriteStillFreesItsRoomAndReportsTheFailure() {
    CompletionQueue queue =
        new CompletionQueue(
            batch -> {
              throw new IllegalStateException("database gone");
            },
            100,
            COALESCE,
            "test-writer",
            () -> {},
            () -> now,
            pauses::add);
    queue.add(completion());
    queue.add(completion());

    assertThatThrownBy(() -> queue.pass(0, TimeUnit.MILLISECONDS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("database gone");
    assertThat(queue.unwritten()).isZero();
  }

  @Test
  void nothingArrivingMeansNoWrite() throws InterruptedException {
    CompletionQueue queue = queue(100);

    assertThat(queue.pass(0, TimeUnit.MILLISECONDS)).isZero();

    assertThat(written).isEmpty();
    assertThat(pauses).isEmpty();
  }

  @Test
  void whatIsQueuedAtStopIsWrittenAndALaterCompletionIsWrittenAtOnce() {
    CompletionQueue queue = queue(100);
    queue.add(completion());
    queue.add(completion());

    queue.stop(List.of(completion()));
    assertThat(written).containsExactly(3);

    // A call that ended while the relay was stopping: handed over after the final drain.
    queue.add(completion());
    assertThat(written).containsExactly(3, 1);
    assertThat(queue.unwritten()).isZero();
  }
}
