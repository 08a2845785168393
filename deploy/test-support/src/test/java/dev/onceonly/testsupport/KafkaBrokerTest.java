package dev.onceonly.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker process that tests without Docker use is a real Kafka: an idempotent producer's
 * records and the consumer groups' committed offsets survive kill -9 and a restart on the same
 * data, each group goes on from its own offset, and a broker that cannot have its port says so.
 */
class KafkaBrokerTest {

  private static final int RECORDS = 300;
  private static final int PARTITIONS = 3;

  @TempDir static Path dir;
  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.builder().dataDir(dir.resolve("broker")).autoCreateTopics(false).start();
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  @Test
  void recordsAndCommittedOffsetsSurviveKillMinus9AndRestart() throws Exception {
    createTopic("orders", PARTITIONS);
    List<String> sent = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      sent.add("order-" + i);
    }
    Set<Integer> partitionsWritten = produce("orders", sent);
    assertThat(partitionsWritten).hasSize(PARTITIONS);

    List<ConsumerRecord<String, String>> all = consume("whole", "orders", RECORDS);
    assertThat(values(all)).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(all).allSatisfy(r -> assertThat(r.key()).isEqualTo(keyOf(r.value())));
    assertKeyOrderKept(all);
    Map<TopicPartition, OffsetAndMetadata> wholeCommitted = committed("whole");
    assertThat(wholeCommitted.values().stream().mapToLong(OffsetAndMetadata::offset).sum())
        .isEqualTo(RECORDS);

    List<String> firstHundred = consumeAndCommitPart("half", "orders", 100);

    broker.kill();
    assertThat(broker.isRunning()).isFalse();
    assertThat(broker.dataDir().resolve("kraft/.kafka_cleanshutdown"))
        .as("no clean shutdown was recorded: the broker died")
        .doesNotExist();
    broker.start();

    assertThat(committed("whole")).isEqualTo(wholeCommitted);
    assertThat(values(consume("after-restart", "orders", RECORDS)))
        .containsExactlyInAnyOrderElementsOf(sent);
    List<String> rest = values(consume("half", "orders", RECORDS - firstHundred.size()));
    assertThat(rest).doesNotContainAnyElementsOf(firstHundred);
    assertThat(union(firstHundred, rest)).containsExactlyInAnyOrderElementsOf(sent);
  }

  @Test
  void stopIsACleanShutdownAndTheBrokerStartsAgainWithItsTopics() throws Exception {
    createTopic("kept", 1);
    produce("kept", List.of("order-7"));

    broker.stop();
    assertThat(broker.isRunning()).isFalse();
    assertThat(Files.readString(broker.logFile())).contains("onceonly-kafka-broker: stopped");
    assertThat(broker.dataDir().resolve("kraft/.kafka_cleanshutdown")).exists();
    broker.start();

    assertThat(values(consume("kept-reader", "kept", 1))).containsExactly("order-7");
  }

  @Test
  void withAutoCreationOffAnUnknownTopicIsRefused() throws Exception {
    try (KafkaProducer<String, String> producer =
        KafkaClients.producer(bootstrap(), Duration.ofSeconds(3))) {
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>("nobody-made-this", "x")).get())
          .hasMessageContaining("nobody-made-this");
    }
    try (Admin admin = admin()) {
      assertThat(admin.listTopics().names().get()).doesNotContain("nobody-made-this");
    }
  }

  @Test
  void aTakenPortIsAStartupErrorThatNamesItAndTheLog() throws IOException {
    int port = KafkaBroker.freePortPair();
    Path takenDir = dir.resolve("taken");
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(KafkaBroker.HOST, port));

      assertThatThrownBy(() -> KafkaBroker.builder().port(port).dataDir(takenDir).start())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("port " + port + " on 127.0.0.1 is taken")
          .hasMessageContaining(takenDir.resolve(KafkaBroker.LOG_FILE).toString());
    }
  }

  private static void createTopic(String topic, int partitions) throws Exception {
    try (Admin admin = admin()) {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
    }
  }

  /** Sends with an idempotent producer, acks=all; returns the partitions written. */
  private static Set<Integer> produce(String topic, List<String> values)
      throws InterruptedException, ExecutionException {
    Set<Integer> partitions = new HashSet<>();
    try (KafkaProducer<String, String> producer = KafkaClients.producer(bootstrap())) {
      List<Future<RecordMetadata>> acks = new ArrayList<>();
      for (String value : values) {
        acks.add(producer.send(new ProducerRecord<>(topic, keyOf(value), value)));
      }
      for (var ack : acks) {
        partitions.add(ack.get().partition());
      }
    }
    return partitions;
  }

  /** Reads {@code count} records as group {@code group} from its committed offset, commits. */
  private static List<ConsumerRecord<String, String>> consume(
      String group, String topic, int count) {
    try (KafkaConsumer<String, String> consumer = KafkaClients.consumer(bootstrap(), group)) {
      List<ConsumerRecord<String, String>> records =
          KafkaClients.pollAtLeast(consumer, topic, count);
      consumer.commitSync();
      assertThat(records).hasSize(count);
      return records;
    }
  }

  /** Reads as group {@code group} but commits only the first {@code count} records read. */
  private static List<String> consumeAndCommitPart(String group, String topic, int count) {
    try (KafkaConsumer<String, String> consumer = KafkaClients.consumer(bootstrap(), group)) {
      List<ConsumerRecord<String, String>> handled =
          KafkaClients.pollAtLeast(consumer, topic, count).subList(0, count);
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      for (ConsumerRecord<String, String> r : handled) {
        offsets.merge(
            new TopicPartition(r.topic(), r.partition()),
            new OffsetAndMetadata(r.offset() + 1),
            (a, b) -> a.offset() >= b.offset() ? a : b);
      }
      consumer.commitSync(offsets);
      return values(handled);
    }
  }

  private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
    try (Admin admin = admin()) {
      return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    }
  }

  /** Within a partition, a key's records arrive in the order they were sent. */
  private static void assertKeyOrderKept(List<ConsumerRecord<String, String>> records) {
    Map<String, List<Integer>> byKey =
        records.stream()
            .collect(
                Collectors.groupingBy(
                    ConsumerRecord::key,
                    Collectors.mapping(
                        r -> Integer.parseInt(r.value().substring(6)), Collectors.toList())));
    byKey.values().forEach(sequence -> assertThat(sequence).isSorted());
  }

  private static String keyOf(String value) {
    return "customer-" + Integer.parseInt(value.substring(value.indexOf('-') + 1)) % 30;
  }

  private static List<String> values(List<ConsumerRecord<String, String>> records) {
    return records.stream().map(ConsumerRecord::value).toList();
  }

  private static List<String> union(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static Admin admin() {
    Properties config = new Properties();
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    return Admin.create(config);
  }

  private static String bootstrap() {
    return broker.bootstrapServers();
  }
}
