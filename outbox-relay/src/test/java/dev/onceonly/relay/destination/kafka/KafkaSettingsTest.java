package dev.onceonly.relay.destination.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.support.Configs;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Kafka destination is configuration like any other: declared by properties or by environment
 * variables, its producer idempotent with {@code acks=all} whatever is passed through, and a
 * destination configured wrong stops the start with a message naming the key at fault (never a
 * secret's value).
 */
class KafkaSettingsTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void aKafkaDestinationDeclaredByTheEnvironmentPublishesAsConfigured() {
    RelayConfig config =
        Configs.fromEnvironment(
            Map.of(
                "RELAY_DESTINATIONS__ORDERS__TYPE", "kafka",
                "RELAY_DESTINATIONS__ORDERS__KAFKA_BOOTSTRAP_SERVERS", "k1:9092,k2:9092",
                "RELAY_DESTINATIONS__ORDERS__KAFKA_TOPIC", "orders.paid",
                "RELAY_DESTINATIONS__ORDERS__KAFKA_SEND_TIMEOUT", "20s",
                "RELAY_DESTINATIONS__ORDERS__KAFKA_PROPERTIES_SECURITY_PROTOCOL", "SSL",
                "RELAY_DESTINATIONS__ORDERS__KAFKA_PROPERTIES_COMPRESSION_TYPE", "zstd"));

    Destinations destinations = new Destinations(config, vertx);
    try {
      Destinations.Route route = destinations.route("orders").orElseThrow();
      assertThat(route.destination()).isInstanceOf(KafkaDestination.class);
      assertThat(route.destination().target())
          .isEqualTo(
              "publish to Kafka topic orders.paid on k1:9092,k2:9092 (SSL), key the row's"
                  + " ordering key, idempotent (acks=all)");
      assertThat(route.longestCall()).isEqualTo(Duration.ofSeconds(25));
      assertThat(config.destinations().get("orders").kafka().orElseThrow().properties())
          .as("a producer property from a variable: its name in lower case, _ read as .")
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("security.protocol", "SSL", "compression.type", "zstd"));
    } finally {
      route(destinations);
    }
  }

  @Test
  void passedThroughPropertiesReachTheProducerButNeverItsIdempotenceOrALog() {
    Map<String, String> properties = new HashMap<>();
    properties.put(key("secure", "type"), "kafka");
    properties.put(key("secure", "kafka.bootstrap-servers"), "broker.example.com:9093");
    properties.put(key("secure", "kafka.topic"), "orders");
    properties.put(key("secure", "kafka.key"), "{payload.customerId}");
    properties.put(key("secure", "kafka.idempotency-header"), "idempotency-key");
    properties.put(key("secure", "kafka.properties.\"security.protocol\""), "SASL_SSL");
    properties.put(key("secure", "kafka.properties.\"sasl.mechanism\""), "PLAIN");
    properties.put(
        key("secure", "kafka.properties.\"sasl.jaas.config\""),
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"relay\""
            + " password=\"very-secret\";");
    properties.put(key("secure", "kafka.properties.\"compression.type\""), "zstd");

    KafkaSettings settings =
        KafkaSettings.of(
            Configs.fromProperties(properties).destinations().get("secure").kafka().orElseThrow(),
            k -> Destinations.key("secure", "kafka." + k));

    Properties producer = settings.producerProperties("onceonly-relay-secure");
    assertThat(producer)
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", "true")
        .containsEntry("bootstrap.servers", "broker.example.com:9093")
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "PLAIN")
        .containsEntry("compression.type", "zstd")
        .containsEntry("client.id", "onceonly-relay-secure")
        .containsEntry("max.block.ms", "5000")
        .containsEntry("delivery.timeout.ms", "10000");
    assertThat(producer.getProperty("sasl.jaas.config")).contains("very-secret");
    assertThat(settings.idempotencyHeader()).isEqualTo("idempotency-key");
    assertThat(settings.target())
        .isEqualTo(
            "publish to Kafka topic orders on broker.example.com:9093 (SASL_SSL), key"
                + " {payload.customerId}, idempotent (acks=all)")
        .doesNotContain("very-secret");
    assertThat(settings.toString()).doesNotContain("very-secret");
  }

  @Test
  void aKafkaDestinationConfiguredWrongStopsTheStartNamingTheKey() {
    Map<String, String> properties = new HashMap<>();
    properties.put(key("good", "type"), "kafka");
    properties.put(key("good", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("good", "kafka.topic"), "orders");
    properties.put(key("bare", "type"), "kafka");
    properties.put(key("notopic", "type"), "kafka");
    properties.put(key("notopic", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("nobrokers", "type"), "kafka");
    properties.put(key("nobrokers", "kafka.topic"), "orders");
    properties.put(key("badbrokers", "type"), "kafka");
    properties.put(key("badbrokers", "kafka.bootstrap-servers"), "k");
    properties.put(key("badbrokers", "kafka.topic"), "orders");
    properties.put(key("badtopic", "type"), "kafka");
    properties.put(key("badtopic", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("badtopic", "kafka.topic"), "orders paid");
    properties.put(key("acks", "type"), "kafka");
    properties.put(key("acks", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("acks", "kafka.topic"), "orders");
    properties.put(key("acks", "kafka.properties.\"acks\""), "1");
    properties.put(key("typo", "type"), "kafka");
    properties.put(key("typo", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("typo", "kafka.topic"), "orders");
    properties.put(key("typo", "kafka.properties.\"ssl.truststore.locaton\""), "/x");
    properties.put(key("badvalue", "type"), "kafka");
    properties.put(key("badvalue", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("badvalue", "kafka.topic"), "orders");
    properties.put(key("badvalue", "kafka.properties.\"linger.ms\""), "soon");
    properties.put(key("badkey", "type"), "kafka");
    properties.put(key("badkey", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("badkey", "kafka.topic"), "orders");
    properties.put(key("badkey", "kafka.key"), "{payload.customerId");
    properties.put(key("slow", "type"), "kafka");
    properties.put(key("slow", "kafka.bootstrap-servers"), "k:9092");
    properties.put(key("slow", "kafka.topic"), "orders");
    properties.put(key("slow", "kafka.properties.\"request.timeout.ms\""), "30000");
    properties.put(key("mixed", "type"), "http");
    properties.put(key("mixed", "http.url"), "http://h:1/x");
    properties.put(key("mixed", "kafka.topic"), "orders");

    assertThatThrownBy(() -> new Destinations(Configs.fromProperties(properties), vertx))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("outbox destinations configured wrong: ")
        .hasMessageContaining(
            key("bare", "kafka.bootstrap-servers")
                + " and "
                + key("bare", "kafka.topic")
                + " are required for type kafka")
        .hasMessageContaining(key("notopic", "kafka.topic") + " is required for type kafka")
        .hasMessageContaining(
            key("nobrokers", "kafka.bootstrap-servers") + " is required for type kafka")
        .hasMessageContaining(
            key("badbrokers", "kafka.bootstrap-servers") + " must be host:port[,host:port...]")
        .hasMessageContaining(key("badtopic", "kafka.topic") + " must be a Kafka topic name")
        .hasMessageContaining(key("acks", "kafka.properties.\"acks\"") + " is set by the relay")
        .hasMessageContaining(
            key("typo", "kafka.properties.\"ssl.truststore.locaton\"")
                + " is not a Kafka producer property")
        .hasMessageContaining(key("badvalue", "kafka.properties") + ": Invalid value soon")
        .hasMessageContaining(key("badkey", "kafka.key") + " is not a valid template")
        .hasMessageContaining(
            key("slow", "kafka.send-timeout")
                + " must be at least linger.ms + request.timeout.ms (30005 ms), was PT10S")
        .hasMessageContaining(
            key("mixed", "kafka.*") + " is set but " + key("mixed", "type") + " is http")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\"good\""));
  }

  private static String key(String name, String suffix) {
    return Destinations.key(name, suffix);
  }

  private static void route(Destinations destinations) {
    destinations.all().forEach(r -> r.destination().close());
  }
}
