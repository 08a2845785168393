package dev.onceonly.internal.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * The listener's entry point takes a message in and returns before the message is settled, so the
 * connector's event loop goes on to the next one while the transaction runs; a failure that settles
 * nothing rejects the message instead of leaving it unacked.
 */
class IntakeTakeInTest {

  private final List<Throwable> rejected = new ArrayList<>();

  @Test
  void returnsBeforeTheMessageIsSettledAndRejectsNothingOnceItIs() {
    CompletableFuture<Void> settled = new CompletableFuture<>();

    CompletionStage<Void> taken = Intake.takeIn(() -> settled, rejected::add);

    assertThat(taken.toCompletableFuture()).as("the event loop is free at once").isDone();
    assertThat(settled).isNotDone();
    settled.complete(null);
    assertThat(rejected).isEmpty();
  }

  @Test
  void aFailureThatSettlesNothingLaterRejectsTheMessage() {
    CompletableFuture<Void> settled = new CompletableFuture<>();
    Intake.takeIn(() -> settled, rejected::add);
    AssertionError error = new AssertionError("a committer died");

    settled.completeExceptionally(error);

    assertThat(rejected).containsExactly(error);
  }

  @Test
  void aFailureWhileTakingInRejectsTheMessageAndStillFreesTheEventLoop() {
    IllegalStateException bug = new IllegalStateException("not a RabbitMQ message");

    CompletionStage<Void> taken =
        Intake.takeIn(
            () -> {
              throw bug;
            },
            rejected::add);

    assertThat(taken.toCompletableFuture()).isCompletedWithValue(null);
    assertThat(rejected).containsExactly(bug);
  }

  @Test
  void aFailureWrappedByAStageIsRejectedWithItsCause() {
    IllegalStateException cause = new IllegalStateException("ack failed: channel closed");
    CompletableFuture<Void> settled = new CompletableFuture<>();
    Intake.takeIn(() -> settled.thenApply(v -> v), rejected::add);

    settled.completeExceptionally(cause);

    assertThat(rejected).containsExactly(cause);
  }
}
