package dev.onceonly.sandbox.fault;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;

/**
 * One set of fault switches. A null field is unset: per API it inherits the global value, globally
 * it means the default (rates 0, no latency, hang 10 s after the effect, Retry-After 1 s,
 * effect-then-fail mode 500, errors answered 500). {@code errorStatus} is the status of an injected
 * error: a 5xx the caller retries, or a 4xx such as 422 that a caller treats as final (the way to
 * make rows go dead at once).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FaultRates(
    Double errorRate,
    Long latencyMs,
    Double hangRate,
    Long hangMs,
    Double throttleRate,
    Integer retryAfterSeconds,
    Double effectThenFailRate,
    String effectThenFailMode,
    String hangMode,
    Integer errorStatus) {

  public static final String AFTER_EFFECT = "after-effect";
  public static final String BEFORE_EFFECT = "before-effect";

  public static final FaultRates UNSET =
      new FaultRates(null, null, null, null, null, null, null, null, null, null);

  public static final FaultRates DEFAULTS =
      new FaultRates(0.0, 0L, 0.0, 10_000L, 0.0, 1, 0.0, "500", AFTER_EFFECT, 500);

  /** This set with every unset field taken from {@code fallback}. */
  public FaultRates orElse(FaultRates fallback) {
    return new FaultRates(
        pick(errorRate, fallback.errorRate),
        pick(latencyMs, fallback.latencyMs),
        pick(hangRate, fallback.hangRate),
        pick(hangMs, fallback.hangMs),
        pick(throttleRate, fallback.throttleRate),
        pick(retryAfterSeconds, fallback.retryAfterSeconds),
        pick(effectThenFailRate, fallback.effectThenFailRate),
        pick(effectThenFailMode, fallback.effectThenFailMode),
        pick(hangMode, fallback.hangMode),
        pick(errorStatus, fallback.errorStatus));
  }

  /** The faults' shares of calls added up; a resolved set must not exceed 1. */
  public double totalRate() {
    return errorRate + throttleRate + hangRate + effectThenFailRate;
  }

  /** What is wrong with this set, each message prefixed with {@code where}; empty if valid. */
  public List<String> problems(String where) {
    List<String> problems = new ArrayList<>();
    share(problems, where, "errorRate", errorRate);
    share(problems, where, "hangRate", hangRate);
    share(problems, where, "throttleRate", throttleRate);
    share(problems, where, "effectThenFailRate", effectThenFailRate);
    notNegative(problems, where, "latencyMs", latencyMs);
    notNegative(problems, where, "hangMs", hangMs);
    notNegative(problems, where, "retryAfterSeconds", retryAfterSeconds);
    if (effectThenFailMode != null
        && !effectThenFailMode.equals("500")
        && !effectThenFailMode.equals("drop")) {
      problems.add(where + "effectThenFailMode must be \"500\" or \"drop\"");
    }
    if (hangMode != null && !hangMode.equals(AFTER_EFFECT) && !hangMode.equals(BEFORE_EFFECT)) {
      problems.add(where + "hangMode must be \"after-effect\" or \"before-effect\"");
    }
    if (errorStatus != null && (errorStatus < 400 || errorStatus > 599 || errorStatus == 429)) {
      problems.add(
          where + "errorStatus must be a 4xx or 5xx status other than 429 (see throttleRate)");
    }
    return problems;
  }

  private static <T> T pick(T value, T fallback) {
    return value != null ? value : fallback;
  }

  private static void share(List<String> problems, String where, String name, Double value) {
    if (value != null && !(value >= 0.0 && value <= 1.0)) {
      problems.add(where + name + " must be between 0 and 1");
    }
  }

  private static void notNegative(List<String> problems, String where, String name, Number value) {
    if (value != null && value.longValue() < 0) {
      problems.add(where + name + " must not be negative");
    }
  }
}
