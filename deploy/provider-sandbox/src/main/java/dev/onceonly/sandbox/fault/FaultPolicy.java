package dev.onceonly.sandbox.fault;

import dev.onceonly.sandbox.provider.Api;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Decides the fault of each call from validated {@link FaultSettings}: a scripted step for the
 * call's number with its key if there is one, else one roll of a (seedable) die against the API's
 * rates. Thread-safe; immutable apart from the die.
 */
public final class FaultPolicy {

  private final FaultSettings settings;
  private final Map<Api, FaultRates> rates = new EnumMap<>(Api.class);
  private final Map<String, List<Fault.ScriptStep>> script = new HashMap<>();
  private final Random dice;

  /**
   * @throws IllegalArgumentException listing every problem if the settings cannot be used
   */
  public FaultPolicy(FaultSettings settings) {
    List<String> problems = settings.problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    this.settings = settings;
    for (Api api : Api.values()) {
      rates.put(api, settings.effective(api));
    }
    settings
        .script()
        .forEach((key, steps) -> script.put(key, steps.stream().map(Fault::parseStep).toList()));
    this.dice = settings.seed() == null ? new Random() : new Random(settings.seed());
  }

  public FaultSettings settings() {
    return settings;
  }

  public FaultRates rates(Api api) {
    return rates.get(api);
  }

  /** The fault for the {@code callNumber}-th call (from 1) with {@code key} on {@code api}. */
  public FaultDecision decide(Api api, String key, int callNumber) {
    FaultRates r = rates.get(api);
    Fault.ScriptStep step = scripted(key, callNumber);
    Fault fault;
    int status = r.errorStatus();
    if (step != null) {
      fault = step.fault();
      status = step.fault() == Fault.ERROR ? step.status() : status;
    } else {
      fault = roll(r);
    }
    return new FaultDecision(
        fault,
        status,
        r.latencyMs(),
        r.hangMs(),
        r.retryAfterSeconds(),
        FaultRates.BEFORE_EFFECT.equals(r.hangMode()));
  }

  private Fault.ScriptStep scripted(String key, int callNumber) {
    List<Fault.ScriptStep> steps = key == null ? null : script.get(key);
    if (steps == null || callNumber < 1 || callNumber > steps.size()) {
      return null;
    }
    return steps.get(callNumber - 1);
  }

  private Fault roll(FaultRates r) {
    if (r.totalRate() <= 0.0) {
      return Fault.NONE;
    }
    double x = dice.nextDouble();
    if ((x -= r.errorRate()) < 0) {
      return Fault.ERROR;
    }
    if ((x -= r.throttleRate()) < 0) {
      return Fault.THROTTLE;
    }
    if ((x -= r.hangRate()) < 0) {
      return Fault.HANG;
    }
    if (x - r.effectThenFailRate() < 0) {
      return "drop".equals(r.effectThenFailMode()) ? Fault.EFFECT_THEN_DROP : Fault.EFFECT_THEN_500;
    }
    return Fault.NONE;
  }
}
