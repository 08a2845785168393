package dev.onceonly.pipeline;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The pipeline's look at Kafka, where RabbitMQ's tools look at queues: how many records each
 * consumer group of consumer-service has not committed yet (its lag, the queue depth's
 * counterpart), and the records of a dead-letter topic, read from its start without joining a group
 * or committing anything. The chaos suite's Kafka scenarios judge the dead letters with it too.
 */
public final class KafkaView implements AutoCloseable {

  /** consumer-service's consumers on Kafka: the topics each reads (docs/kafka.md). */
  static final Map<String, List<String>> TOPICS =
      Map.of(
          "loyalty", List.of("order.completed", "reward.redeemed"),
          "receipts", List.of("order.completed"),
          "profiles", List.of("customer.profile-changed"));

  private static final long TIMEOUT_S = 30;

  private final String bootstrap;
  private final Admin admin;

  public KafkaView(String bootstrap) {
    this.bootstrap = bootstrap;
    this.admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
  }

  static String group(String consumer) {
    return "consumer-service." + consumer;
  }

  static String deadLetterTopic(String consumer) {
    return "onceonly." + consumer + ".dlt";
  }

  /** Records of the consumer's topics past its group's committed offsets (all, before any). */
  long lag(String consumer) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets(group(consumer))
            .partitionsToOffsetAndMetadata()
            .get(TIMEOUT_S, TimeUnit.SECONDS);
    long behind = 0;
    for (Map.Entry<TopicPartition, Long> end : ends(TOPICS.get(consumer)).entrySet()) {
      OffsetAndMetadata at = committed.get(end.getKey());
      behind += end.getValue() - (at == null ? 0 : at.offset());
    }
    return behind;
  }

  /** The end offset of every partition of {@code topics}; a topic that does not exist has none. */
  private Map<TopicPartition, Long> ends(List<String> topics) throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (String topic : topics) {
      for (TopicPartition tp : partitions(topic)) {
        latest.put(tp, OffsetSpec.latest());
      }
    }
    Map<TopicPartition, Long> ends = new HashMap<>();
    admin
        .listOffsets(latest)
        .all()
        .get(TIMEOUT_S, TimeUnit.SECONDS)
        .forEach((tp, info) -> ends.put(tp, info.offset()));
    return ends;
  }

  private List<TopicPartition> partitions(String topic) throws Exception {
    TopicDescription description;
    try {
      description =
          admin
              .describeTopics(List.of(topic))
              .allTopicNames()
              .get(TIMEOUT_S, TimeUnit.SECONDS)
              .get(topic);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return List.of();
      }
      throw e;
    }
    List<TopicPartition> partitions = new ArrayList<>();
    description.partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
    return partitions;
  }

  /**
   * The consumer's dead-letter topic as {@link DeadLetterPeek} shows a queue: how many records it
   * holds and the first {@code max} of them, with their reason and failure headers.
   */
  public DeadLetterPeek.Queue deadLetters(String consumer, int max) throws Exception {
    String topic = deadLetterTopic(consumer);
    Map<TopicPartition, Long> ends = ends(List.of(topic));
    long depth = ends.values().stream().mapToLong(Long::longValue).sum();
    List<DeadLetterPeek.Letter> letters = new ArrayList<>();
    if (depth == 0) {
      return new DeadLetterPeek.Queue(topic, 0, letters);
    }
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(p)) {
      Set<TopicPartition> assigned = ends.keySet();
      reader.assign(assigned);
      reader.seekToBeginning(assigned);
      long deadline = System.nanoTime() + Duration.ofSeconds(TIMEOUT_S).toNanos();
      while (letters.size() < max && !atEnd(reader, ends) && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
          if (letters.size() < max) {
            letters.add(
                DeadLetterPeek.letter(
                    header(r, DeadLetterPeek.REASON),
                    header(r, DeadLetterPeek.FAILURE),
                    new String(r.value(), StandardCharsets.UTF_8)));
          }
        }
      }
    }
    return new DeadLetterPeek.Queue(topic, depth, letters);
  }

  private static boolean atEnd(KafkaConsumer<?, ?> reader, Map<TopicPartition, Long> ends) {
    return ends.entrySet().stream().allMatch(e -> reader.position(e.getKey()) >= e.getValue());
  }

  private static String header(ConsumerRecord<?, ?> record, String name) {
    Header h = record.headers().lastHeader(name);
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
