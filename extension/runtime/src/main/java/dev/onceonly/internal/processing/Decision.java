package dev.onceonly.internal.processing;

/** What became of one submitted message: a verdict after commit, or the failure that stopped it. */
public record Decision(Verdict verdict, RuntimeException failure) {

  static Decision of(Verdict verdict) {
    return new Decision(verdict, null);
  }

  static Decision failed(RuntimeException failure) {
    return new Decision(null, failure);
  }

  /** The verdict, or the failure thrown. */
  public Verdict verdictOrThrow() {
    if (failure != null) {
      throw failure;
    }
    return verdict;
  }
}
