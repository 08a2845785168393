package dev.onceonly.relay.destination.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.DeliveryResult.Classification;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.support.Configs;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

/**
 * What a send that cannot be made comes to, without a broker: a failed attempt worth retrying and
 * counted as an outage when no broker answers, saying why; a row its record key cannot be filled
 * from is final without a send; and how the producer's errors are classified.
 */
class KafkaFailuresTest {

  @Test
  void aBrokerThatCannotBeReachedIsAnOutage() throws Exception {
    try (KafkaDestination destination = destination(Map.of())) {
      DeliveryResult result = destination.send(row("{}", "c-1"), null).get(30, TimeUnit.SECONDS);

      assertThat(result.classification()).isEqualTo(Classification.RETRYABLE);
      assertThat(result.outage()).isTrue();
      assertThat(result.describe())
          .startsWith("not acknowledged by Kafka (topic orders): TimeoutException: ")
          .contains("orders");
    }
  }

  @Test
  void aRowItsRecordKeyCannotBeFilledFromIsFinalWithoutASend() throws Exception {
    try (KafkaDestination destination = destination(Map.of("kafka.key", "{orderingKey}"))) {
      DeliveryResult result = destination.send(row("{}", null), null).get(30, TimeUnit.SECONDS);

      assertThat(result.classification()).isEqualTo(Classification.FINAL);
      assertThat(result.describe())
          .isEqualTo("cannot build the record key: the row has no ordering key for {orderingKey}");
    }
  }

  @Test
  void aRecordThatNeverFitsIsFinalAndARefusedTopicIsNoOutage() {
    try (KafkaDestination destination = destination(Map.of())) {
      DeliveryResult tooLarge =
          destination.outcome(null, new RecordTooLargeException("1048700 bytes"));
      assertThat(tooLarge.classification()).isEqualTo(Classification.FINAL);
      assertThat(tooLarge.outage()).isFalse();

      DeliveryResult refused =
          destination.outcome(null, new TopicAuthorizationException("Not authorized: orders"));
      assertThat(refused.classification()).isEqualTo(Classification.RETRYABLE);
      assertThat(refused.outage()).as("the broker answered").isFalse();
    }
  }

  private static KafkaDestination destination(Map<String, String> overrides) {
    Map<String, String> settings = new HashMap<>();
    settings.put("type", "kafka");
    // Port 1: nothing listens there.
    settings.put("kafka.bootstrap-servers", "127.0.0.1:1");
    settings.put("kafka.topic", "orders");
    settings.put("kafka.connect-timeout", "500ms");
    settings.put("kafka.send-timeout", "2s");
    settings.putAll(overrides);
    Map<String, String> properties = new HashMap<>();
    settings.forEach((k, v) -> properties.put(Destinations.key("events", k), v));
    return new KafkaDestination(
        "events",
        KafkaSettings.of(
            Configs.fromProperties(properties).destinations().get("events").kafka().orElseThrow(),
            k -> Destinations.key("events", "kafka." + k)));
  }

  private static LeasedRow row(String payload, String orderingKey) {
    return new LeasedRow(
        1, "events", payload, "key-1", orderingKey, 1, 1, Instant.now(), null, null);
  }
}
