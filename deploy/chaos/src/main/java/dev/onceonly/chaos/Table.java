package dev.onceonly.chaos;

import java.time.Duration;
import java.util.List;

/** The suite's report: one row per scenario, as a Markdown table that also reads in a terminal. */
final class Table {

  static final String HEADER =
      "| # | scenario | events | faults injected | lost | doubled | time to recover | verdict |";
  static final String RULE = "|---|---|---:|---:|---:|---:|---:|---|";

  private Table() {}

  static String render(List<Scenario.Result> results) {
    StringBuilder out = new StringBuilder(HEADER).append('\n').append(RULE).append('\n');
    for (Scenario.Result r : results) {
      out.append(
          String.format(
              "| %d | %s | %d | %d | %d | %d | %s | %s |%n",
              r.number(),
              r.name(),
              r.events(),
              r.faults(),
              r.lost(),
              r.doubled(),
              recovery(r.recovery()),
              r.passed() ? "PASS" : "FAIL"));
    }
    return out.toString();
  }

  /** Seconds with one decimal; "not recovered" when the bound passed first. */
  static String recovery(Duration d) {
    if (d == null) {
      return "not recovered";
    }
    return String.format("%.1f s", d.toMillis() / 1000.0);
  }
}
