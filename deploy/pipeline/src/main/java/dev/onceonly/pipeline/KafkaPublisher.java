package dev.onceonly.pipeline;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes to Kafka as a producer of the loyalty events would (docs/kafka.md): each event to the
 * topic of its type (named as its routing key), keyed by customer, the producer's id in header
 * {@code message-id}, JSON; idempotent with {@code acks=all}, every send's acknowledgement awaited
 * before it returns. A copy is a second record with the same id, as a producer's retry after a lost
 * acknowledgement or a relay's second attempt makes.
 */
public final class KafkaPublisher implements Sink {

  static final String MESSAGE_ID = "message-id";
  private static final long ACK_TIMEOUT_S = 60;

  private final String bootstrap;
  private final KafkaProducer<byte[], byte[]> producer;

  public KafkaPublisher(String bootstrap) {
    this.bootstrap = bootstrap;
    this.producer = producer(bootstrap);
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return new KafkaProducer<>(p);
  }

  static ProducerRecord<byte[], byte[]> record(Outgoing m) {
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(
            m.routingKey(),
            m.key() == null ? null : m.key().getBytes(StandardCharsets.UTF_8),
            m.body());
    if (m.messageId() != null) {
      record.headers().add(MESSAGE_ID, m.messageId().getBytes(StandardCharsets.UTF_8));
    }
    record.headers().add("content-type", "application/json".getBytes(StandardCharsets.UTF_8));
    return record;
  }

  @Override
  public void publish(List<Outgoing> messages) throws Exception {
    List<Future<RecordMetadata>> sent = new ArrayList<>(messages.size());
    for (Outgoing m : messages) {
      sent.add(producer.send(record(m)));
    }
    awaitAll(sent);
  }

  /** Each lane is a producer of its own, as two producers sending the same event at once. */
  @Override
  public void publishTwice(List<Outgoing> messages) throws Exception {
    Sink.inStep(
        messages,
        () -> {
          KafkaProducer<byte[], byte[]> own = producer(bootstrap);
          List<Future<RecordMetadata>> sent = new ArrayList<>();
          return new Sink.Lane() {
            @Override
            public void send(Outgoing m) {
              sent.add(own.send(record(m)));
            }

            @Override
            public void awaitAcknowledged() throws Exception {
              own.flush();
              awaitAll(sent);
            }

            @Override
            public void close() {
              own.close();
            }
          };
        });
  }

  private static void awaitAll(List<Future<RecordMetadata>> sent) throws Exception {
    for (Future<RecordMetadata> f : sent) {
      f.get(ACK_TIMEOUT_S, TimeUnit.SECONDS);
    }
  }

  /** None: a record Kafka does not take fails its send, and the feed with it. */
  @Override
  public int returned() {
    return 0;
  }

  @Override
  public void close() {
    producer.close();
  }
}
