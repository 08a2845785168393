package dev.onceonly.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/**
 * The Quarkus test resource hands a test the address of a Kafka that takes records on a topic
 * nobody created (topics are created on first use), under both names the Kafka extensions read.
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
}
