package dev.onceonly.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OutcomeCountersTest {

  private static final String SCRAPE =
      """
      # HELP onceonly_consumer_messages_total Messages decided per consumer and outcome
      # TYPE onceonly_consumer_messages_total counter
      onceonly_consumer_messages_total{consumer="loyalty",outcome="applied"} 1700.0
      onceonly_consumer_messages_total{consumer="loyalty",outcome="duplicate"} 1650.0
      onceonly_consumer_messages_total{consumer="loyalty",outcome="requeued"} 3.0
      onceonly_consumer_messages_total{consumer="loyalty",outcome="dead_lettered"} 2.0
      onceonly_consumer_messages_total{consumer="receipts",outcome="conflict",} 1.0
      onceonly_consumer_handle_seconds_count{consumer="loyalty"} 3352.0
      """;

  @Test
  void readsCountersByConsumerAndOutcome() {
    OutcomeCounters counters = OutcomeCounters.parse(SCRAPE);
    assertThat(counters.count("loyalty", "applied")).isEqualTo(1700);
    assertThat(counters.count("receipts", "conflict")).isEqualTo(1);
    assertThat(counters.count("profiles", "applied")).isZero();
  }

  @Test
  void decidedCountsFinalOutcomesOnlyNotRequeues() {
    OutcomeCounters counters = OutcomeCounters.parse(SCRAPE);
    assertThat(counters.decided("loyalty")).isEqualTo(1700 + 1650 + 2);
    assertThat(counters.total()).isEqualTo(1700 + 1650 + 2 + 1);
  }
}
