package dev.onceonly.pipeline;

import java.io.PrintStream;

/** Prints checks as they are computed, ✔ or ✘, and remembers whether any failed. */
final class Proof {

  private final PrintStream out;
  private int passed;
  private int failed;

  Proof(PrintStream out) {
    this.out = out;
  }

  void section(String title) {
    out.println();
    out.println(title);
  }

  /** One check: the line says what was compared, with the numbers it was computed from. */
  boolean check(boolean ok, String format, Object... args) {
    out.println("  " + (ok ? "✔ " : "✘ ") + String.format(format, args));
    if (ok) {
      passed++;
    } else {
      failed++;
    }
    return ok;
  }

  /** A line of context under a check; proves nothing by itself. */
  void note(String format, Object... args) {
    out.println("      " + String.format(format, args));
  }

  boolean allPassed() {
    return failed == 0 && passed > 0;
  }

  String tally() {
    return passed + " checks passed, " + failed + " failed";
  }

  /** {@code a = b = c ...} holds for every value given. */
  static boolean same(long first, long... others) {
    for (long other : others) {
      if (other != first) {
        return false;
      }
    }
    return true;
  }
}
