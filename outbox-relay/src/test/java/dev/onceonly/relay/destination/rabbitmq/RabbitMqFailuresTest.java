package dev.onceonly.relay.destination.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.DeliveryResult.Classification;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.support.Configs;
import dev.onceonly.testsupport.RabbitMqResource;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a publish that cannot be made comes to: a failed attempt worth retrying, saying why, counted
 * as an outage when the broker cannot be reached; and a row its routing key cannot be filled from
 * is final without a publish.
 */
class RabbitMqFailuresTest {

  private static final RabbitMqResource BROKER = new RabbitMqResource();
  private static Map<String, String> broker;

  @BeforeAll
  static void start() {
    broker = BROKER.start();
  }

  @AfterAll
  static void stop() {
    BROKER.stop();
  }

  @Test
  void aBrokerThatCannotBeReachedIsAnOutage() throws Exception {
    try (RabbitMqDestination destination =
        destination(Map.of("rabbitmq.host", "127.0.0.1", "rabbitmq.port", "1"))) {
      DeliveryResult result = destination.send(row("{}"), null).get(30, TimeUnit.SECONDS);

      assertThat(result.classification()).isEqualTo(Classification.RETRYABLE);
      assertThat(result.outage()).isTrue();
      assertThat(result.describe()).startsWith("cannot publish to amqp://127.0.0.1:1/");
    }
  }

  @Test
  void aNodeListWithNoNodeUpIsAnOutageNamingEveryNode() throws Exception {
    try (RabbitMqDestination destination =
        destination(Map.of("rabbitmq.addresses", "127.0.0.1:1, 127.0.0.1:2"))) {
      DeliveryResult result = destination.send(row("{}"), null).get(30, TimeUnit.SECONDS);

      assertThat(result.classification()).isEqualTo(Classification.RETRYABLE);
      assertThat(result.outage()).isTrue();
      assertThat(result.describe()).startsWith("cannot publish to amqp://127.0.0.1:1,127.0.0.1:2/");
    }
  }

  @Test
  void anExchangeThatDoesNotExistFailsTheAttemptNamingIt() throws Exception {
    try (RabbitMqDestination destination =
        destination(Map.of("rabbitmq.exchange", "onceonly.relay.test.missing-exchange"))) {
      DeliveryResult result = destination.send(row("{}"), null).get(30, TimeUnit.SECONDS);

      assertThat(result.classification()).isEqualTo(Classification.RETRYABLE);
      assertThat(result.describe())
          .contains("exchange 'onceonly.relay.test.missing-exchange' does not exist on amqp://");
    }
  }

  @Test
  void aRowItsRoutingKeyCannotBeFilledFromIsFinalWithoutAPublish() throws Exception {
    try (RabbitMqDestination destination =
        destination(
            Map.of("rabbitmq.port", "1", "rabbitmq.routing-key", "order.{payload.status}"))) {
      DeliveryResult result = destination.send(row("{\"id\":1}"), null).get(30, TimeUnit.SECONDS);

      assertThat(result.classification()).isEqualTo(Classification.FINAL);
      assertThat(result.describe())
          .isEqualTo("cannot build the routing key: the payload has no value for {payload.status}");
    }
  }

  private static RabbitMqDestination destination(Map<String, String> overrides) {
    Map<String, String> settings = new HashMap<>();
    settings.put("type", "rabbitmq");
    settings.put("rabbitmq.host", broker.get("rabbitmq-host"));
    settings.put("rabbitmq.port", broker.get("rabbitmq-port"));
    settings.put("rabbitmq.username", broker.get("rabbitmq-username"));
    settings.put("rabbitmq.password", broker.get("rabbitmq-password"));
    settings.put("rabbitmq.virtual-host", broker.get("rabbitmq-virtual-host"));
    settings.put("rabbitmq.connect-timeout", "2s");
    settings.put("rabbitmq.confirm-timeout", "5s");
    settings.putAll(overrides);
    Map<String, String> properties = new HashMap<>();
    settings.forEach((k, v) -> properties.put(Destinations.key("events", k), v));
    return new RabbitMqDestination(
        "events",
        RabbitMqSettings.of(
            Configs.fromProperties(properties)
                .destinations()
                .get("events")
                .rabbitmq()
                .orElseThrow(),
            k -> Destinations.key("events", "rabbitmq." + k)));
  }

  private static LeasedRow row(String payload) {
    return new LeasedRow(1, "events", payload, "key-1", null, 1, 1, Instant.now(), null, null);
  }
}
