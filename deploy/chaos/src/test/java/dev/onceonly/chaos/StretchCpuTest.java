package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StretchCpuTest {

  private static final long T0 = Instant.parse("2026-12-02T12:00:00Z").toEpochMilli();

  private static ProcessCpu.Sample sample(
      long ms, double consumers, double broker, double machine, double capacity) {
    return new ProcessCpu.Sample(
        T0 + ms,
        Map.of(
            "consumers",
            consumers,
            "broker",
            broker,
            ProcessCpu.MACHINE,
            machine,
            ProcessCpu.CAPACITY,
            capacity));
  }

  private static PoisonBlocks.Timed stretch(boolean poisoned, int healthy, long from, long to) {
    return new PoisonBlocks.Timed(
        new PoisonBlocks.Block(
            poisoned,
            healthy + (poisoned ? healthy / 9 : 0),
            healthy,
            poisoned ? healthy / 9 : 0,
            Set.of()),
        Instant.ofEpochMilli(T0 + from),
        Instant.ofEpochMilli(T0 + to));
  }

  @Test
  void readsEachGroupOnTheStraightLineBetweenTheSamplesEitherSide() {
    List<ProcessCpu.Sample> samples =
        List.of(sample(0, 0, 0, 0, 0), sample(100, 1, 0, 2, 2), sample(300, 2, 4, 4, 6));

    assertThat(StretchCpu.at(samples, "consumers", Instant.ofEpochMilli(T0 + 50)))
        .isCloseTo(0.5, within(1e-9));
    assertThat(StretchCpu.at(samples, "broker", Instant.ofEpochMilli(T0 + 200)))
        .isCloseTo(2.0, within(1e-9));
    assertThat(StretchCpu.at(samples, "consumers", Instant.ofEpochMilli(T0 - 10))).isZero();
    assertThat(StretchCpu.at(samples, "consumers", Instant.ofEpochMilli(T0 + 900))).isEqualTo(2);
  }

  @Test
  void splitsTheCpuByKindAndChargesThePoisonWhatThePoisonedStretchesTookBeyondTheCleanOnes() {
    // clean: 900 healthy in 1 s, consumers 0.9 s and broker 0.45 s of CPU, the machine 1.8 of 2
    // poisoned: 900 healthy and 100 invalid in 1.2 s, consumers 1.2 s, broker 0.7 s, machine 2.2
    List<ProcessCpu.Sample> samples =
        List.of(
            sample(0, 0, 0, 0, 0),
            sample(1000, 0.9, 0.45, 1.8, 2.0),
            sample(2200, 2.1, 1.15, 4.0, 4.4));
    List<PoisonBlocks.Timed> timed =
        List.of(stretch(false, 900, 0, 1000), stretch(true, 900, 1000, 2200));

    StretchCpu.Split split = StretchCpu.of(timed, samples);

    assertThat(split.clean().healthy()).isEqualTo(900);
    assertThat(split.poisoned().invalid()).isEqualTo(100);
    assertThat(split.clean().perHealthyMs("consumers")).isCloseTo(1.0, within(1e-9));
    assertThat(split.poisoned().perHealthyMs("consumers")).isCloseTo(1.2 / 0.9, within(1e-9));
    assertThat(split.clean().perHealthyMs(ProcessCpu.MACHINE)).isCloseTo(2.0, within(1e-9));
    // the rest of the machine: 1.8 - 0.9 - 0.45 in the clean stretch
    assertThat(split.clean().perHealthyMs(StretchCpu.REST)).isCloseTo(0.5, within(1e-9));
    assertThat(split.clean().busy()).isCloseTo(0.9, within(1e-9));
    assertThat(split.poisoned().busy()).isCloseTo(2.2 / 2.4, within(1e-9));
    // consumers: (1.2 - 0.9) s over 100 invalid messages = 3 ms each; broker (0.7 - 0.45) s = 2.5
    assertThat(split.perInvalidMs("consumers")).isCloseTo(3.0, within(1e-9));
    assertThat(split.perInvalidMs("broker")).isCloseTo(2.5, within(1e-9));
    assertThat(split.perInvalidMs(ProcessCpu.MACHINE)).isCloseTo(4.0, within(1e-9));
    assertThat(split.describe(List.of("consumers", "broker")))
        .isEqualTo(
            "CPU per healthy message: clean 2.00 ms (consumers 1.00, broker 0.50, rest 0.50),"
                + " machine busy 90 %, poisoned 2.44 ms (consumers 1.33, broker 0.78, rest 0.33),"
                + " machine busy 92 %; each invalid message cost 4.00 ms more (consumers 3.00,"
                + " broker 2.50, rest -1.50), 3.67 times a healthy message's over the lab's"
                + " processes; clean over poisoned CPU per healthy message 0.82");
    // the lab (consumers and broker here): 1.35 s for 900 healthy = 1.5 ms; (1.9 - 1.35) s over
    // 100 invalid = 5.5 ms more each, 3.67 times; the rest of the machine does not count
    assertThat(split.clean().perHealthyMs(StretchCpu.LAB)).isCloseTo(1.5, within(1e-9));
    assertThat(split.perInvalidMs(StretchCpu.LAB)).isCloseTo(5.5, within(1e-9));
    assertThat(split.invalidOverHealthy()).isCloseTo(5.5 / 1.5, within(1e-9));
    assertThat(split.cpuRatio()).isCloseTo(2.0 / (2.2 / 0.9), within(1e-9));
  }

  @Test
  void addsUpRunsKindByKind() {
    List<ProcessCpu.Sample> samples =
        List.of(sample(0, 0, 0, 0, 0), sample(1000, 1, 1, 2, 2), sample(2000, 3, 2, 4, 4));
    StretchCpu.Split one =
        StretchCpu.of(
            List.of(stretch(false, 900, 0, 1000), stretch(true, 900, 1000, 2000)), samples);

    StretchCpu.Split two = one.plus(one);

    assertThat(two.clean().healthy()).isEqualTo(1800);
    assertThat(two.poisoned().invalid()).isEqualTo(200);
    assertThat(two.poisoned().cpu().get("consumers")).isCloseTo(4.0, within(1e-9));
    assertThat(two.perInvalidMs("consumers"))
        .isCloseTo(one.perInvalidMs("consumers"), within(1e-9));
  }
}
