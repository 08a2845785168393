package dev.onceonly.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SchemaWaitTest {

  private static final Duration TICK = Duration.ofMillis(20);

  /** Records what the wait told, in order. */
  private static final class Told implements SchemaWait.Observer {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void missing(List<String> problems) {
      events.add("missing " + problems);
    }

    @Override
    public void complete() {
      events.add("complete");
    }

    @Override
    public void gaveUp(List<String> problems) {
      events.add("gave up " + problems);
    }
  }

  @Test
  void itTellsWhatIsMissingOnceAndCompletesWhenTheSchemaArrives() {
    AtomicInteger checks = new AtomicInteger();
    SchemaWait wait =
        new SchemaWait(
            "test-wait",
            () -> checks.incrementAndGet() < 5 ? List.of("V3 pending") : List.of(),
            Duration.ofMinutes(1),
            TICK);
    Told told = new Told();

    wait.start(Duration.ZERO, told);

    await().until(() -> told.events.contains("complete"));
    assertThat(told.events).containsExactly("missing [V3 pending]", "complete");
    assertThat(wait.problems()).isEmpty();
    assertThat(wait.waiting()).isFalse();
  }

  @Test
  void aDatabaseThatCannotBeReachedCountsAsMissingAndTheWaitGivesUpAfterItsLimit() {
    SchemaWait wait =
        new SchemaWait(
            "test-wait",
            () -> {
              throw new IllegalStateException("connection refused");
            },
            Duration.ofMillis(200),
            TICK);
    Told told = new Told();

    wait.start(Duration.ZERO, told);

    await().until(() -> !wait.waiting());
    assertThat(told.events)
        .containsExactly(
            "missing [database not reachable: connection refused]",
            "gave up [database not reachable: connection refused]");
  }

  @Test
  void aCompleteSchemaIsSeenAtOnceWithoutAThreadAndAStoppedWaitTellsNothing() {
    assertThat(new SchemaWait("test-wait", List::of, Duration.ofMinutes(1), TICK).completeNow())
        .isTrue();

    AtomicInteger checks = new AtomicInteger();
    SchemaWait stopped =
        new SchemaWait(
            "test-wait",
            () -> {
              checks.incrementAndGet();
              return List.of("V1 pending");
            },
            Duration.ofMinutes(1),
            TICK);
    Told told = new Told();
    stopped.start(Duration.ofMinutes(1), told);
    stopped.stop();

    assertThat(stopped.waiting()).isFalse();
    assertThat(checks).hasValue(0);
    assertThat(told.events).isEmpty();
  }
}
