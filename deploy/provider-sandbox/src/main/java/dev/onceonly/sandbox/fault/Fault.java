package dev.onceonly.sandbox.fault;

/**
 * What the sandbox does to one call. {@link #ERROR} and {@link #THROTTLE} answer before the effect
 * is taken; {@link #HANG}, {@link #EFFECT_THEN_500} and {@link #EFFECT_THEN_DROP} take the effect
 * (or replay it) first and then misbehave, which is the case an idempotency key exists for.
 */
public enum Fault {
  /** Behave: take the effect, replay or refuse as the key says. */
  NONE("none"),
  /** Answer an error (500, or the API's {@code errorStatus}) without taking the effect. */
  ERROR("error"),
  /** Answer 429 with Retry-After without taking the effect. */
  THROTTLE("throttle"),
  /** Take the effect, then hold the answer past the caller's timeout. */
  HANG("hang"),
  /** Take the effect and store the answer, then answer 500. */
  EFFECT_THEN_500("effectThen500"),
  /** Take the effect and store the answer, then close the connection without answering. */
  EFFECT_THEN_DROP("effectThenDrop");

  private final String statName;

  Fault(String statName) {
    this.statName = statName;
  }

  /** The name of this fault in {@code GET /sandbox/stats}. */
  public String statName() {
    return statName;
  }

  /**
   * Reads one step of a per-key script: {@code ok}, a 5xx status such as {@code 500} or {@code
   * 503}, {@code 429}, {@code hang}, {@code effect-then-500}, {@code effect-then-drop} or {@code
   * drop}.
   */
  public static ScriptStep parseStep(String token) {
    String t = token == null ? "" : token.trim().toLowerCase(java.util.Locale.ROOT);
    switch (t) {
      case "ok":
        return new ScriptStep(NONE, 0);
      case "429":
        return new ScriptStep(THROTTLE, 429);
      case "hang":
        return new ScriptStep(HANG, 0);
      case "effect-then-500":
        return new ScriptStep(EFFECT_THEN_500, 500);
      case "effect-then-drop":
      case "drop":
        return new ScriptStep(EFFECT_THEN_DROP, 0);
      default:
        if (t.matches("5\\d\\d")) {
          return new ScriptStep(ERROR, Integer.parseInt(t));
        }
        throw new IllegalArgumentException(
            "unknown script step '"
                + token
                + "': use ok, 500 (any 5xx), 429, hang, effect-then-500, effect-then-drop");
    }
  }

  /** One scripted behaviour; {@code status} is the answer's status for ERROR. */
  public record ScriptStep(Fault fault, int status) {}
}
