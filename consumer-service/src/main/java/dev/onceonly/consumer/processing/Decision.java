package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.Outcome;

/**
 * What became of one submitted message: an outcome after commit, or the failure that stopped it.
 */
public record Decision(Outcome outcome, RuntimeException failure) {

  static Decision of(Outcome outcome) {
    return new Decision(outcome, null);
  }

  static Decision failed(RuntimeException failure) {
    return new Decision(null, failure);
  }

  /** The outcome, or the failure thrown. */
  public Outcome outcomeOrThrow() {
    if (failure != null) {
      throw failure;
    }
    return outcome;
  }
}
