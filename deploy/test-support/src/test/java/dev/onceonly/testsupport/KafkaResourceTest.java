package dev.onceonly.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The Quarkus test resource hands a test the address of a Kafka that takes records on a topic
 * nobody created (topics are created on first use), under both names the Kafka extensions read;
 * asked for a broker of the test's own, it starts one with the test's settings and stops it after.
 */
class KafkaResourceTest {

  @Test
  void providesTheBootstrapServersOfAKafkaThatCreatesTopicsOnFirstUse() throws Exception {
    KafkaResource resource = new KafkaResource();
    resource.init(Map.of());
    try {
      Map<String, String> config = resource.start();

      String bootstrap = config.get("kafka.bootstrap.servers");
      assertThat(config)
          .containsEntry("mp.messaging.connector.smallrye-kafka.bootstrap.servers", bootstrap);
      if (!Docker.available()) {
        assertThat(bootstrap).isEqualTo(KafkaBroker.shared().bootstrapServers());
      }
      try (KafkaProducer<String, String> producer = KafkaClients.producer(bootstrap)) {
        producer.send(new ProducerRecord<>("resource-first-use", "k", "hello")).get();
      }
      List<String> read;
      try (KafkaConsumer<String, String> consumer =
          KafkaClients.consumer(bootstrap, "resource-test")) {
        read =
            KafkaClients.pollAtLeast(consumer, "resource-first-use", 1).stream()
                .map(ConsumerRecord::value)
                .toList();
      }
      assertThat(read).containsExactly("hello");
    } finally {
      resource.stop();
    }
  }

  @Test
  void aBrokerOfTheTestsOwnTakesItsSettingsAndStopsWithTheTest() throws Exception {
    assumeFalse(Docker.available(), "a container stands in for the broker where Docker answers");
    KafkaResource resource = new KafkaResource();
    resource.init(Map.of("shared", "false", "partitions", "3"));
    String bootstrap;
    try {
      bootstrap = resource.start().get("kafka.bootstrap.servers");

      assertThat(bootstrap).isNotEqualTo(KafkaBroker.shared().bootstrapServers());
      try (KafkaProducer<String, String> producer = KafkaClients.producer(bootstrap)) {
        assertThat(producer.partitionsFor("own-first-use")).hasSize(3);
      }
    } finally {
      resource.stop();
    }
    int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
    try (Socket socket = new Socket()) {
      assertThatThrownBy(() -> socket.connect(new InetSocketAddress(KafkaBroker.HOST, port), 1_000))
          .as("nothing listens on %s once the test is over", bootstrap)
          .isInstanceOf(ConnectException.class);
    }
  }
}
