package dev.onceonly.k8s;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies of a Prometheus rule file with one alert's threshold or {@code for:} moved, each a little
 * either way: a threshold T by 10 % of T, at least 1 (a zero threshold to 1.5 and to -1: one event
 * more, or none); a duration by 10 %, at least one minute. A unit-test file that tests every alert
 * on both sides of its threshold and of its duration fails against every copy.
 */
final class RuleMutants {

  /** One changed copy of the rule file and what was changed. */
  record Mutant(String alert, String change, String rules) {}

  private static final Pattern ALERT = Pattern.compile("(?m)^\\s*- alert: (\\S+)\\s*$");
  private static final Pattern COMPARISON =
      Pattern.compile("(>=|<=|==|!=|>|<)\\s*(-?\\d+(?:\\.\\d+)?(?:[eE]\\d+)?)(?=\\s|$)");
  private static final Pattern FOR = Pattern.compile("(?m)^(\\s*for: )(\\d+)([smh])\\s*$");
  private static final Pattern EXPR_END = Pattern.compile("(?m)^\\s*(for|labels|annotations):");

  private RuleMutants() {}

  static List<Mutant> of(String rules) {
    List<Mutant> mutants = new ArrayList<>();
    Matcher alert = ALERT.matcher(rules);
    List<int[]> blocks = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (alert.find()) {
      blocks.add(new int[] {alert.start(), rules.length()});
      names.add(alert.group(1));
      if (blocks.size() > 1) {
        blocks.get(blocks.size() - 2)[1] = alert.start();
      }
    }
    for (int i = 0; i < blocks.size(); i++) {
      int start = blocks.get(i)[0];
      int end = blocks.get(i)[1];
      String block = rules.substring(start, end);
      Matcher exprEnd = EXPR_END.matcher(block);
      int exprLimit = exprEnd.find() ? exprEnd.start() : block.length();
      Matcher comparison = COMPARISON.matcher(block).region(0, exprLimit);
      while (comparison.find()) {
        BigDecimal threshold = new BigDecimal(comparison.group(2));
        for (BigDecimal moved : moved(threshold)) {
          String text = comparison.group(1) + " " + moved.toPlainString();
          mutants.add(
              new Mutant(
                  names.get(i),
                  comparison.group().strip() + " -> " + text,
                  rules.substring(0, start + comparison.start())
                      + text
                      + rules.substring(start + comparison.end())));
        }
      }
      Matcher duration = FOR.matcher(block);
      if (duration.find()) {
        Duration d = duration(duration.group(2), duration.group(3));
        Duration step =
            d.dividedBy(10).compareTo(Duration.ofMinutes(1)) < 0
                ? Duration.ofMinutes(1)
                : d.dividedBy(10);
        for (Duration moved : List.of(d.plus(step), d.minus(step))) {
          String text = duration.group(1) + moved.toSeconds() + "s";
          mutants.add(
              new Mutant(
                  names.get(i),
                  "for " + d.toMinutes() + "m -> " + moved.toSeconds() + "s",
                  rules.substring(0, start + duration.start())
                      + text
                      + rules.substring(start + duration.end())));
        }
      }
    }
    return mutants;
  }

  private static List<BigDecimal> moved(BigDecimal threshold) {
    if (threshold.signum() == 0) {
      return List.of(new BigDecimal("1.5"), BigDecimal.ONE.negate());
    }
    BigDecimal step = threshold.abs().divide(BigDecimal.TEN).max(BigDecimal.ONE);
    return List.of(threshold.add(step), threshold.subtract(step));
  }

  private static Duration duration(String amount, String unit) {
    long n = Long.parseLong(amount);
    return switch (unit) {
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }
}
