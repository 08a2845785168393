package dev.onceonly.testsupport;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Plain kafka-clients producers and consumers of strings, as a test talks to a broker. */
final class KafkaClients {

  private static final Duration WAIT = Duration.ofSeconds(90);

  private KafkaClients() {}

  /** An idempotent producer: acks=all, enable.idempotence=true. */
  static KafkaProducer<String, String> producer(String bootstrap) {
    return producer(bootstrap, Duration.ofSeconds(60));
  }

  /** The same, waiting at most {@code maxBlock} for a topic's metadata. */
  static KafkaProducer<String, String> producer(String bootstrap, Duration maxBlock) {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) maxBlock.toMillis());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    return new KafkaProducer<>(config);
  }

  /** A consumer of {@code group} that starts at the earliest record and commits only when told. */
  static KafkaConsumer<String, String> consumer(String bootstrap, String group) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    return new KafkaConsumer<>(config);
  }

  /** Polls {@code topic} until at least {@code count} records came, at most 90 s. */
  static List<ConsumerRecord<String, String>> pollAtLeast(
      KafkaConsumer<String, String> consumer, String topic, int count) {
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    consumer.subscribe(List.of(topic));
    await()
        .atMost(WAIT)
        .pollInSameThread()
        .until(
            () -> {
              consumer.poll(Duration.ofMillis(200)).forEach(records::add);
              return records.size() >= count;
            });
    return records;
  }
}
