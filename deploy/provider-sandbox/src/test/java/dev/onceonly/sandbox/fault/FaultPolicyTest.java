package dev.onceonly.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.sandbox.provider.Api;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FaultPolicyTest {

  private static FaultRates rates(double error, double throttle, double hang, double etf) {
    return new FaultRates(error, null, hang, null, throttle, null, etf, null, null, null);
  }

  private static FaultSettings settings(Long seed, FaultRates global) {
    return new FaultSettings(seed, global, null, null, null, null);
  }

  @Test
  void scriptedStepsApplyToTheNthCallWithTheirKeyOnly() {
    FaultPolicy policy =
        new FaultPolicy(
            new FaultSettings(
                null,
                null,
                null,
                null,
                null,
                Map.of("k", List.of("503", "effect-then-500", "drop", "429", "hang", "ok"))));

    assertThat(policy.decide(Api.RECEIPTS, "k", 1).fault()).isEqualTo(Fault.ERROR);
    assertThat(policy.decide(Api.RECEIPTS, "k", 1).errorStatus()).isEqualTo(503);
    assertThat(policy.decide(Api.PAYOUTS, "k", 2).fault()).isEqualTo(Fault.EFFECT_THEN_500);
    assertThat(policy.decide(Api.RECEIPTS, "k", 3).fault()).isEqualTo(Fault.EFFECT_THEN_DROP);
    assertThat(policy.decide(Api.RECEIPTS, "k", 4).fault()).isEqualTo(Fault.THROTTLE);
    assertThat(policy.decide(Api.RECEIPTS, "k", 5).fault()).isEqualTo(Fault.HANG);
    assertThat(policy.decide(Api.RECEIPTS, "k", 6).fault()).isEqualTo(Fault.NONE);
    assertThat(policy.decide(Api.RECEIPTS, "other", 1).fault()).isEqualTo(Fault.NONE);
  }

  @Test
  void callsBeyondTheScriptAreLeftToTheRates() {
    FaultPolicy policy =
        new FaultPolicy(
            new FaultSettings(
                null, rates(1.0, 0, 0, 0), null, null, null, Map.of("k", List.of("ok"))));

    assertThat(policy.decide(Api.RECEIPTS, "k", 1).fault()).isEqualTo(Fault.NONE);
    assertThat(policy.decide(Api.RECEIPTS, "k", 2).fault()).isEqualTo(Fault.ERROR);
  }

  @Test
  void sameSeedRollsTheSameFaults() {
    FaultSettings settings = settings(42L, rates(0.2, 0.2, 0.2, 0.2));

    assertThat(roll(new FaultPolicy(settings), 200))
        .isEqualTo(roll(new FaultPolicy(settings), 200));
    assertThat(roll(new FaultPolicy(settings), 200))
        .contains(Fault.NONE, Fault.ERROR, Fault.THROTTLE, Fault.HANG, Fault.EFFECT_THEN_500);
  }

  @Test
  void ratesSetTheShareOfFaults() {
    List<Fault> faults = roll(new FaultPolicy(settings(7L, rates(0.3, 0, 0, 0))), 10_000);

    long errors = faults.stream().filter(f -> f == Fault.ERROR).count();
    assertThat(errors).isBetween(2_700L, 3_300L);
    assertThat(faults).containsOnly(Fault.NONE, Fault.ERROR);
  }

  @Test
  void dropModeTurnsEffectThenFailIntoADroppedConnection() {
    FaultRates drop = new FaultRates(null, null, null, null, null, null, 1.0, "drop", null, null);

    FaultPolicy policy = new FaultPolicy(settings(1L, drop));

    assertThat(roll(policy, 20)).containsOnly(Fault.EFFECT_THEN_DROP);
  }

  @Test
  void perApiSwitchesOverrideGlobalOnesAndInheritTheRest() {
    FaultRates global = new FaultRates(0.1, 25L, null, null, null, 3, null, null, null, null);
    FaultRates payouts = new FaultRates(0.5, null, null, null, null, null, null, null, null, null);

    FaultPolicy policy =
        new FaultPolicy(new FaultSettings(null, global, null, payouts, null, null));

    assertThat(policy.rates(Api.PAYOUTS).errorRate()).isEqualTo(0.5);
    assertThat(policy.rates(Api.PAYOUTS).latencyMs()).isEqualTo(25L);
    assertThat(policy.rates(Api.RECEIPTS).errorRate()).isEqualTo(0.1);
    assertThat(policy.rates(Api.RECEIPTS).retryAfterSeconds()).isEqualTo(3);
    assertThat(policy.rates(Api.RECEIPTS).hangMs()).isEqualTo(10_000L);
    assertThat(policy.decide(Api.PAYOUTS, "k", 1).latencyMs()).isEqualTo(25L);
  }

  @Test
  void unusableSettingsAreRefusedWithEveryProblem() {
    FaultRates tooMuch = rates(0.6, 0.6, 0, 0);
    FaultRates negative =
        new FaultRates(-0.1, -5L, null, null, null, null, null, "explode", "sometimes", 302);

    assertThatThrownBy(() -> new FaultPolicy(settings(null, tooMuch)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not exceed 1");
    assertThatThrownBy(() -> new FaultPolicy(settings(null, negative)))
        .hasMessageContaining("errorRate must be between 0 and 1")
        .hasMessageContaining("latencyMs must not be negative")
        .hasMessageContaining("effectThenFailMode")
        .hasMessageContaining("hangMode must be \"after-effect\" or \"before-effect\"")
        .hasMessageContaining("errorStatus must be a 4xx or 5xx status");
    assertThatThrownBy(
            () ->
                new FaultPolicy(
                    new FaultSettings(null, null, null, null, null, Map.of("k", List.of("404")))))
        .hasMessageContaining("unknown script step '404'");
  }

  @Test
  void aHangBeforeTheEffectIsAPerApiSwitch() {
    FaultRates stall =
        new FaultRates(null, null, 1.0, 30_000L, null, null, null, null, "before-effect", null);

    FaultPolicy policy = new FaultPolicy(new FaultSettings(null, null, null, stall, null, null));

    FaultDecision payout = policy.decide(Api.PAYOUTS, "k", 1);
    assertThat(payout.fault()).isEqualTo(Fault.HANG);
    assertThat(payout.hangBeforeEffect()).isTrue();
    assertThat(payout.hangMs()).isEqualTo(30_000L);
    assertThat(policy.decide(Api.RECEIPTS, "k", 1).fault()).isEqualTo(Fault.NONE);
  }

  private static List<Fault> roll(FaultPolicy policy, int calls) {
    List<Fault> faults = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      faults.add(policy.decide(Api.RECEIPTS, "key-" + i, 1).fault());
    }
    return faults;
  }
}
