package dev.onceonly.pipeline;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The consumer's {@code onceonly_consumer_messages_total{consumer,outcome}} counters, read from its
 * Prometheus endpoint.
 */
final class OutcomeCounters {

  /** Outcomes that end a delivery; {@code requeued} does not (the message comes back). */
  static final List<String> FINAL_OUTCOMES =
      List.of("applied", "duplicate", "conflict", "rejected", "dead_lettered");

  private static final String METRIC = "onceonly_consumer_messages_total{";
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

  private final Map<String, Map<String, Long>> counts;

  private OutcomeCounters(Map<String, Map<String, Long>> counts) {
    this.counts = counts;
  }

  static OutcomeCounters scrape(String consumerManagementUrl)
      throws IOException, InterruptedException {
    return parse(Http.get(consumerManagementUrl + "/q/metrics"));
  }

  static OutcomeCounters parse(String prometheusText) {
    Map<String, Map<String, Long>> counts = new HashMap<>();
    for (String line : prometheusText.split("\n")) {
      if (!line.startsWith(METRIC)) {
        continue;
      }
      int close = line.lastIndexOf('}');
      Matcher label = LABEL.matcher(line.substring(METRIC.length(), close));
      String consumer = null;
      String outcome = null;
      while (label.find()) {
        if (label.group(1).equals("consumer")) {
          consumer = label.group(2);
        } else if (label.group(1).equals("outcome")) {
          outcome = label.group(2);
        }
      }
      if (consumer != null && outcome != null) {
        long value = (long) Double.parseDouble(line.substring(close + 1).trim().split(" ")[0]);
        counts.computeIfAbsent(consumer, c -> new HashMap<>()).merge(outcome, value, Long::sum);
      }
    }
    return new OutcomeCounters(counts);
  }

  long count(String consumer, String outcome) {
    return counts.getOrDefault(consumer, Map.of()).getOrDefault(outcome, 0L);
  }

  /** Deliveries the consumer has finished with, whatever it decided. */
  long decided(String consumer) {
    return FINAL_OUTCOMES.stream().mapToLong(o -> count(consumer, o)).sum();
  }

  long total() {
    return counts.keySet().stream().mapToLong(this::decided).sum();
  }
}
