package dev.onceonly.bench;

import dev.onceonly.model.OrderCompleted;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One phase of the Kafka consumer benchmark (kafka-bench.sh), on topic {@value #TOPIC}. Prints
 * {@code key=value} lines on stdout for the script; progress on stderr.
 *
 * <p>{@code --mode service}: publishes a series of OrderCompleted events as a producer of
 * consumer-service on Kafka does (docs/kafka.md: keyed by customer, the event's key in header
 * {@code message-id}) and measures as {@link Publish} does on RabbitMQ, from the first send until
 * both consumers' {@code --await} counters grew by the series' size. Kafka keeps the backlog on
 * disk: no cap.
 *
 * <p>{@code --mode plain}: Kafka alone, the floor under any consumer of that topic. As many
 * consumer groups of its own as consumer-service reads the topic with (loyalty and receipts), a
 * thread each, read {@code --count} records each from the topic's start and commit the offsets of
 * every poll; nothing else is done with a record. Measured from the first poll to the last record
 * of the slower group.
 *
 * <p>Options: {@code --mode service|plain --kafka-bootstrap --kafka-pid --count} and, for service,
 * {@code --run --series --occurred-at --await applied|duplicate --metrics-url --consumer-pid
 * [--customers 10000] [--stall-seconds 90]}; for plain {@code --group-prefix}.
 */
public final class KafkaPhase {

  static final String TOPIC = "order.completed";

  private KafkaPhase() {}

  public static void main(String[] args) throws Exception {
    Options o = new Options(args);
    String bootstrap = o.require("kafka-bootstrap");
    long kafkaPid = o.getLong("kafka-pid", 0);
    int count = o.getInt("count", 20_000);
    switch (o.require("mode")) {
      case "service" -> service(o, bootstrap, kafkaPid, count);
      case "plain" -> plain(bootstrap, kafkaPid, count, o.require("group-prefix"));
      default -> throw new IllegalArgumentException("--mode is service or plain");
    }
  }

  private static void service(Options o, String bootstrap, long kafkaPid, int count)
      throws Exception {
    EventFeed feed = EventFeed.of(o);
    // built before the clock starts
    List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      OrderCompleted event = feed.event(i);
      ProducerRecord<byte[], byte[]> record =
          new ProducerRecord<>(TOPIC, bytes(event.customerId()), feed.body(i));
      record.headers().add("message-id", bytes(event.messageKey()));
      records.add(record);
    }
    try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
      Publish.measure(
          o,
          count,
          "events",
          new CpuGroups(o.getLong("consumer-pid", 0), kafkaPid),
          () -> {
            List<Future<RecordMetadata>> sent = new ArrayList<>(count);
            for (ProducerRecord<byte[], byte[]> r : records) {
              sent.add(producer.send(r));
            }
            for (Future<RecordMetadata> f : sent) {
              f.get(60, TimeUnit.SECONDS);
            }
          });
    }
  }

  /**
   * The groups join first (each has its partitions and is back at their start); the clock and the
   * CPU count start when both have, as consumer-service's groups had joined before its phases.
   */
  private static void plain(String bootstrap, long kafkaPid, int count, String groupPrefix)
      throws Exception {
    int groups = Publish.CONSUMERS.size();
    CountDownLatch joined = new CountDownLatch(groups);
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(groups);
    List<Future<Long>> reading = new ArrayList<>();
    for (String consumer : Publish.CONSUMERS) {
      String group = groupPrefix + "." + consumer;
      reading.add(threads.submit(() -> readAndCommit(bootstrap, group, count, joined, go)));
    }
    if (!joined.await(60, TimeUnit.SECONDS)) {
      threads.shutdownNow();
      throw new IllegalStateException("the plain consumer groups did not join within 60 s");
    }
    CpuGroups cpu = new CpuGroups(0, kafkaPid);
    cpu.start();
    long started = System.nanoTime();
    go.countDown();
    long read = 0;
    try {
      for (Future<Long> g : reading) {
        read += g.get(10, TimeUnit.MINUTES);
      }
    } finally {
      threads.shutdownNow();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    Map<String, Double> cpuPct = cpu.stop();
    Publish.out("seconds", seconds);
    Publish.out("records", read);
    Publish.out("tx_per_s", read / seconds);
    cpuPct.forEach((group, pct) -> Publish.out("cpu_" + group + "_pct", pct));
    Publish.out("cores", CpuGroups.cores());
  }

  /**
   * Joins consumer group {@code group}, counts down {@code joined} and waits for {@code go}, then
   * reads {@code count} records from the start of its partitions, committing after every poll.
   */
  private static long readAndCommit(
      String bootstrap, String group, int count, CountDownLatch joined, CountDownLatch go)
      throws InterruptedException {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, group);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    long read = 0;
    long bytes = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
      consumer.subscribe(List.of(TOPIC));
      while (consumer.assignment().isEmpty()) {
        consumer.poll(Duration.ofMillis(100)); // what it reads now is read again below
      }
      consumer.seekToBeginning(consumer.assignment());
      joined.countDown();
      go.await();
      long lastMove = System.nanoTime();
      while (read < count) {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
        if (records.isEmpty()) {
          if (System.nanoTime() - lastMove > TimeUnit.SECONDS.toNanos(60)) {
            throw new IllegalStateException(
                group + " read " + read + " of " + count + " records, then nothing for 60 s");
          }
          continue;
        }
        for (var r : records) {
          bytes += r.value().length; // touch every record, as any consumer does
        }
        read += records.count();
        lastMove = System.nanoTime();
        consumer.commitAsync();
      }
      consumer.commitSync(Duration.ofSeconds(30));
    }
    System.err.printf("  plain %s: %d records, %d bytes%n", group, read, bytes);
    return read;
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 65_536);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return new KafkaProducer<>(p);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
