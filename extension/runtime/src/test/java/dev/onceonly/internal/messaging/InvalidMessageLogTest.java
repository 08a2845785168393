package dev.onceonly.internal.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.catalog.Specs;
import dev.onceonly.internal.config.ChannelDefaults;
import io.opentelemetry.api.trace.Span;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InvalidMessageLogTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final List<String> lines = new ArrayList<>();

  private InvalidMessageLog log(Duration interval) {
    return new InvalidMessageLog(
        interval, now::get, lines::add, List.of("loyalty", "receipts", "profiles"));
  }

  private void invalid(InvalidMessageLog log, String consumer, String reason) {
    log.invalid(Specs.consumer(consumer), "order.completed", reason, Span.getInvalid());
  }

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void aFloodWritesOneLinePerIntervalAndSumsUpTheRest() {
    InvalidMessageLog log = log(Duration.ofSeconds(10));
    for (int i = 0; i < 500; i++) {
      invalid(log, "loyalty", "missing field 'orderId' #" + i);
      advance(Duration.ofMillis(10));
    }
    assertThat(lines)
        .containsExactly(
            "dead-lettering invalid message on loyalty (routing key order.completed):"
                + " missing field 'orderId' #0");

    log.flush();
    assertThat(lines).hasSize(1); // the interval (10 s) is not over: 5 s went by

    advance(Duration.ofSeconds(6));
    log.flush();
    assertThat(lines)
        .last()
        .isEqualTo(
            "499 more invalid messages on loyalty dead-lettered since the last such line, each"
                + " with its reason in onceonly.loyalty.dlq");

    log.flush();
    advance(Duration.ofSeconds(30));
    log.flush();
    assertThat(lines).as("nothing new, nothing to sum up").hasSize(2);
  }

  @Test
  void theFirstLineOfANewIntervalCarriesTheCountNotYetSummedUp() {
    InvalidMessageLog log = log(Duration.ofSeconds(10));
    invalid(log, "receipts", "a");
    invalid(log, "receipts", "b");
    invalid(log, "receipts", "c");
    advance(Duration.ofSeconds(10));
    invalid(log, "receipts", "d");

    assertThat(lines)
        .containsExactly(
            "dead-lettering invalid message on receipts (routing key order.completed): a",
            "dead-lettering invalid message on receipts (routing key order.completed): d; 2 more"
                + " invalid messages on receipts dead-lettered since the last such line, each with"
                + " its reason in onceonly.receipts.dlq");
  }

  @Test
  void eachConsumerHasItsOwnInterval() {
    InvalidMessageLog log = log(Duration.ofSeconds(10));
    invalid(log, "loyalty", "a");
    invalid(log, "receipts", "b");
    invalid(log, "loyalty", "c");

    assertThat(lines)
        .containsExactly(
            "dead-lettering invalid message on loyalty (routing key order.completed): a",
            "dead-lettering invalid message on receipts (routing key order.completed): b");
  }

  @Test
  void onKafkaTheLineNamesTheTopic() {
    InvalidMessageLog log = log(Duration.ofSeconds(10));
    ConsumerSpec onKafka =
        new ConsumerSpec(
            "shipping",
            "shipping",
            "orders.completed",
            true,
            Object.class,
            null,
            null,
            ChannelDefaults.KAFKA,
            256,
            "onceonly.shipping.dlt");
    log.invalid(onKafka, "orders.completed", "not JSON", Span.getInvalid());
    advance(Duration.ofSeconds(11));
    log.invalid(onKafka, "orders.completed", "not JSON", Span.getInvalid());
    log.invalid(onKafka, "orders.completed", "not JSON", Span.getInvalid());
    advance(Duration.ofSeconds(11));
    log.flush();

    assertThat(lines)
        .containsExactly(
            "dead-lettering invalid message on shipping (topic orders.completed): not JSON",
            "dead-lettering invalid message on shipping (topic orders.completed): not JSON",
            "1 more invalid message on shipping dead-lettered since the last such line, each with"
                + " its reason in onceonly.shipping.dlt");
  }

  @Test
  void aZeroIntervalLogsEveryMessage() {
    InvalidMessageLog log = log(Duration.ZERO);
    for (int i = 0; i < 3; i++) {
      invalid(log, "profiles", "bad " + i);
    }
    log.flush();

    assertThat(lines)
        .hasSize(3)
        .allSatisfy(l -> assertThat(l).startsWith("dead-lettering invalid message on profiles"))
        .noneSatisfy(l -> assertThat(l).contains("more invalid"));
  }

  @Test
  void aNegativeIntervalIsRefusedByName() {
    assertThatThrownBy(() -> log(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("quarkus.onceonly.dead-letters.invalid-log-interval");
  }
}
