package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Scenario 7's restated verdict: both figures of one run, each against its own bound. */
class PoisonFloodTest {

  @Test
  void passesWhenThroughputHoldsFourFifthsAndAnInvalidMessageCostsAtMostAQuarterMore() {
    assertThat(PoisonFlood.verdict(0.80, OptionalDouble.of(1.25))).isEmpty();
    assertThat(PoisonFlood.verdict(0.97, OptionalDouble.of(0.90))).isEmpty();
  }

  @Test
  void failsOnEitherFigureAndSaysWhich() {
    assertThat(PoisonFlood.verdict(0.79, OptionalDouble.of(1.10)))
        .containsExactly("healthy throughput with poison 0.79 of clean, at least 0.80 required");
    assertThat(PoisonFlood.verdict(0.90, OptionalDouble.of(2.36)))
        .containsExactly(
            "an invalid message cost 2.36 times a healthy message's CPU, at most 1.25 allowed");
    assertThat(PoisonFlood.verdict(0.70, OptionalDouble.of(2.0))).hasSize(2);
  }

  @Test
  void aFigureThatCouldNotBeReadFailsRatherThanPasses() {
    assertThat(PoisonFlood.verdict(Double.NaN, OptionalDouble.of(1.0))).hasSize(1);
    assertThat(PoisonFlood.verdict(0.95, OptionalDouble.of(Double.NaN))).hasSize(1);
    assertThat(PoisonFlood.verdict(0.95, OptionalDouble.empty()))
        .containsExactly("the CPU of an invalid message could not be read (no /proc): not judged");
  }
}
