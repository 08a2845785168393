package dev.onceonly.sandbox.fault;

import dev.onceonly.sandbox.provider.Api;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The whole fault configuration: global switches, per-API overrides (receipts, payouts, webhooks),
 * an optional seed for the dice, and a per-key script ({@code key -> [behaviour of call 1, call 2,
 * ...]}) that wins over the dice for the calls it lists.
 */
public record FaultSettings(
    Long seed,
    FaultRates global,
    FaultRates receipts,
    FaultRates payouts,
    FaultRates webhooks,
    Map<String, List<String>> script) {

  /** No fault at all. */
  public static final FaultSettings NONE =
      new FaultSettings(
          null, FaultRates.UNSET, FaultRates.UNSET, FaultRates.UNSET, FaultRates.UNSET, Map.of());

  public FaultSettings {
    global = global == null ? FaultRates.UNSET : global;
    receipts = receipts == null ? FaultRates.UNSET : receipts;
    payouts = payouts == null ? FaultRates.UNSET : payouts;
    webhooks = webhooks == null ? FaultRates.UNSET : webhooks;
    script = script == null ? Map.of() : Map.copyOf(script);
  }

  /** The switches in force for one API: its overrides, then the global ones, then defaults. */
  public FaultRates effective(Api api) {
    FaultRates own =
        switch (api) {
          case RECEIPTS -> receipts;
          case PAYOUTS -> payouts;
          case WEBHOOKS -> webhooks;
        };
    return own.orElse(global).orElse(FaultRates.DEFAULTS);
  }

  /** Everything wrong with these settings, one message each; empty if they can be used. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>(global.problems(""));
    problems.addAll(receipts.problems("receipts."));
    problems.addAll(payouts.problems("payouts."));
    problems.addAll(webhooks.problems("webhooks."));
    for (Api api : Api.values()) {
      FaultRates rates = effective(api);
      if (problems.isEmpty() && rates.totalRate() > 1.0) {
        problems.add(
            api.path()
                + ": errorRate + throttleRate + hangRate + effectThenFailRate must not exceed 1");
      }
    }
    script.forEach(
        (key, steps) -> {
          if (steps == null) {
            problems.add("script." + key + " must be a list of steps");
            return;
          }
          for (String step : steps) {
            try {
              Fault.parseStep(step);
            } catch (IllegalArgumentException e) {
              problems.add("script." + key + ": " + e.getMessage());
            }
          }
        });
    return problems;
  }
}
