package dev.onceonly.relay.console;

import java.util.Locale;

/** Ages as a person reads them at a glance. */
final class Durations {

  private Durations() {}

  /** {@code 0.4 s}, {@code 12 s}, {@code 3 min 5 s}, {@code 2 h 10 min}; "none waiting" at 0. */
  static String age(double seconds) {
    if (!(seconds > 0)) {
      return "none waiting";
    }
    if (seconds < 10) {
      return String.format(Locale.ROOT, "%.1f s", seconds);
    }
    long s = Math.round(seconds);
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return s / 60 + " min " + s % 60 + " s";
    }
    return s / 3600 + " h " + (s % 3600) / 60 + " min";
  }
}
