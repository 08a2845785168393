package dev.onceonly.relay.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A plain Kafka consumer, as a downstream service would read the relay's records: every record of a
 * topic from its first offset to its end, without a consumer group (nothing committed).
 */
public final class TopicReader {

  /** One record as read: its partition, key, value and headers (the last value of each name). */
  public record Received(
      int partition, long offset, String key, String value, Map<String, String> headers) {

    public String header(String name) {
      return headers.get(name);
    }
  }

  private TopicReader() {}

  /**
   * Every record now in {@code topic} that {@code wanted} accepts, in partition then offset order.
   */
  public static List<Received> read(String bootstrap, String topic, Predicate<Received> wanted) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<Received> received = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      if (partitions.isEmpty()) {
        return received;
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(10));
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read " + topic + " to its end " + ends);
        }
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          Received one =
              new Received(
                  r.partition(),
                  r.offset(),
                  r.key(),
                  new String(r.value(), StandardCharsets.UTF_8),
                  headers(r));
          if (wanted.test(one)) {
            received.add(one);
          }
        }
      }
    }
    return received;
  }

  private static Map<String, String> headers(ConsumerRecord<String, byte[]> record) {
    Map<String, String> headers = new java.util.HashMap<>();
    for (Header header : record.headers()) {
      headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
    }
    return headers;
  }
}
