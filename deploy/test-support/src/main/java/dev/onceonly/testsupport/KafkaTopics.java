package dev.onceonly.testsupport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A test's plain Kafka client: publishes records with the producer's id in header {@code
 * message-id}, as a producer of a OnceOnly consumer does, reads a topic (a dead-letter topic) from
 * its start, and tells how far a consumer group's committed offsets are behind a topic's end.
 */
public class KafkaTopics implements AutoCloseable {

  private final String bootstrap;
  private final KafkaProducer<byte[], byte[]> producer;
  private final Admin admin;

  public KafkaTopics(String bootstrap) {
    this.bootstrap = bootstrap;
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    producer = new KafkaProducer<>(p);
    admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
  }

  /** Creates {@code topic} with {@code partitions} partitions. */
  public void createTopic(String topic, int partitions) throws Exception {
    admin
        .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
        .all()
        .get(30, TimeUnit.SECONDS);
  }

  /**
   * Publishes {@code body} with {@code recordKey} as the record's key and {@code messageId} in
   * header {@code message-id} (none where null), waiting for the broker's acknowledgement.
   */
  public void publish(String topic, String messageId, String recordKey, String body)
      throws Exception {
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(
            topic,
            recordKey == null ? null : recordKey.getBytes(StandardCharsets.UTF_8),
            body.getBytes(StandardCharsets.UTF_8));
    if (messageId != null) {
      record.headers().add("message-id", messageId.getBytes(StandardCharsets.UTF_8));
    }
    producer.send(record).get(30, TimeUnit.SECONDS);
  }

  /** Every record of {@code topic} from its start, read within {@code wait}. */
  public List<ConsumerRecord<byte[], byte[]>> readAll(String topic, Duration wait) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + wait.toNanos();
      while (System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(read::add);
      }
    }
    return read;
  }

  /** The records of {@code topic} the group has not committed yet, over all partitions. */
  public long uncommitted(String group, String topic) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get(30, TimeUnit.SECONDS);
    int partitions =
        admin
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(30, TimeUnit.SECONDS)
            .get(topic)
            .partitions()
            .size();
    long behind = 0;
    for (int i = 0; i < partitions; i++) {
      TopicPartition tp = new TopicPartition(topic, i);
      long end =
          admin
              .listOffsets(Map.of(tp, OffsetSpec.latest()))
              .partitionResult(tp)
              .get(30, TimeUnit.SECONDS)
              .offset();
      OffsetAndMetadata at = committed.get(tp);
      behind += end - (at == null ? 0 : at.offset());
    }
    return behind;
  }

  public static String header(ConsumerRecord<?, ?> record, String name) {
    var h = record.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
    admin.close(Duration.ofSeconds(5));
  }
}
