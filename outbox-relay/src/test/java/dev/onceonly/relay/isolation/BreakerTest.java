package dev.onceonly.relay.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.isolation.Breaker.State;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BreakerTest {

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final List<String> transitions = new ArrayList<>();
  private final Breaker breaker =
      new Breaker(
          true,
          3,
          Duration.ofSeconds(30),
          Duration.ofSeconds(12),
          (from, to) -> transitions.add(from + ">" + to));

  @Test
  void aRunOfOutagesOpensItAndNothingIsCalledDuringTheCoolDown() {
    assertThat(breaker.record(true, 0)).isTrue();
    assertThat(breaker.record(true, 0)).isTrue();
    assertThat(breaker.permits(0)).isEqualTo(Integer.MAX_VALUE);
    assertThat(breaker.record(true, 0)).as("the outage that opens it still counts").isTrue();

    assertThat(breaker.state()).isEqualTo(State.OPEN);
    assertThat(breaker.permits(29 * SECOND)).isZero();
    assertThat(breaker.nanosUntilProbe(20 * SECOND)).isEqualTo(10 * SECOND);
    assertThat(transitions).containsExactly("CLOSED>OPEN");
  }

  @Test
  void anAnswerInBetweenEndsTheRun() {
    breaker.record(true, 0);
    breaker.record(true, 0);
    breaker.record(false, 0);
    breaker.record(true, 0);
    breaker.record(true, 0);

    assertThat(breaker.state()).isEqualTo(State.CLOSED);
  }

  @Test
  void afterTheCoolDownOneProbeGoesAndItsSuccessClosesIt() {
    open();

    assertThat(breaker.permits(30 * SECOND)).isEqualTo(1);
    assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
    breaker.started(1, 30 * SECOND);
    assertThat(breaker.permits(31 * SECOND)).as("one probe at a time").isZero();
    assertThat(breaker.record(false, 32 * SECOND)).isTrue();

    assertThat(breaker.state()).isEqualTo(State.CLOSED);
    assertThat(breaker.permits(32 * SECOND)).isEqualTo(Integer.MAX_VALUE);
    assertThat(transitions).containsExactly("CLOSED>OPEN", "OPEN>HALF_OPEN", "HALF_OPEN>CLOSED");
  }

  @Test
  void aFailedProbeOpensItAgainWithoutCountingAgainstTheRow() {
    open();
    breaker.permits(30 * SECOND);
    breaker.started(1, 30 * SECOND);

    assertThat(breaker.record(true, 31 * SECOND)).isFalse();

    assertThat(breaker.state()).isEqualTo(State.OPEN);
    assertThat(breaker.permits(60 * SECOND)).isZero();
    assertThat(breaker.permits(61 * SECOND)).isEqualTo(1);
  }

  @Test
  void callsThatFailWhileItIsOpenDoNotCountAgainstTheirRows() {
    open();

    assertThat(breaker.record(true, SECOND)).isFalse();
    assertThat(breaker.record(true, 2 * SECOND)).isFalse();
    assertThat(breaker.state()).isEqualTo(State.OPEN);
  }

  @Test
  void aProbeWhoseResultNeverCameNoLongerHoldsTheNextOneBack() {
    open();
    breaker.permits(30 * SECOND);
    breaker.started(1, 30 * SECOND);

    assertThat(breaker.permits(41 * SECOND)).isZero();
    assertThat(breaker.permits(42 * SECOND)).isEqualTo(1);
  }

  @Test
  void aDisabledBreakerNeverOpensAndEveryAttemptCounts() {
    Breaker off = new Breaker(false, 1, Duration.ofSeconds(1), Duration.ofSeconds(1), (a, b) -> {});

    for (int i = 0; i < 10; i++) {
      assertThat(off.record(true, i)).isTrue();
    }
    assertThat(off.state()).isEqualTo(State.CLOSED);
    assertThat(off.permits(10)).isEqualTo(Integer.MAX_VALUE);
  }

  private void open() {
    for (int i = 0; i < 3; i++) {
      breaker.record(true, 0);
    }
    assertThat(breaker.state()).isEqualTo(State.OPEN);
  }
}
