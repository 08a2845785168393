package dev.onceonly.chaos;

import dev.onceonly.pipeline.DeadLetterPeek;
import dev.onceonly.pipeline.KafkaPublisher;
import dev.onceonly.pipeline.KafkaView;
import dev.onceonly.pipeline.Sink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lab of the Kafka scenarios: the same database, services and invariants as {@link Lab}, with
 * the consumers on a private Kafka broker ({@code ONCEONLY_TRANSPORT=kafka}): the stream goes to
 * the topics of its event types, and the dead letters are read from the consumers' dead-letter
 * topics ({@code onceonly.<consumer>.dlt}) instead of queues.
 */
final class KafkaLab extends Lab {

  /** Partitions of each topic: more than the members of a group, so that each takes some. */
  static final int PARTITIONS = 3;

  static final List<String> CONSUMERS = List.of("loyalty", "receipts", "profiles");

  final PrivateKafka kafka;

  KafkaLab(PrivatePostgres postgres, PrivateKafka kafka, Fleet fleet, Mode mode, long seed) {
    super(postgres, postgres.jdbcUrl(), null, null, fleet, mode, seed);
    this.kafka = kafka;
  }

  /**
   * What the consumers of a Kafka fleet are given instead of RabbitMQ's variables. RabbitMQ's port
   * is one where nothing listens: a consumer on Kafka needs no RabbitMQ, and one that tried would
   * otherwise reach the machine's shared broker on 5672. Its password is set all the same, as the
   * service requires one at start whatever the transport.
   */
  static Map<String, String> consumerEnv(PrivateKafka kafka) {
    return Map.of(
        "ONCEONLY_TRANSPORT", "kafka",
        "KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrap(),
        "RABBITMQ_HOST", "127.0.0.1",
        "RABBITMQ_PORT", "1",
        "RABBITMQ_USER", "guest",
        "RABBITMQ_PASSWORD", "guest");
  }

  @Override
  Sink sink() {
    return new KafkaPublisher(kafka.bootstrap());
  }

  @Override
  void brokerUp() throws Exception {
    if (!kafka.running()) {
      say("the Kafka broker is not running: starting it");
      kafka.startAgain();
    }
  }

  /**
   * Nothing: a Kafka lab runs one scenario on a broker of its own, so its topics hold that
   * scenario's records only.
   */
  @Override
  void emptyQueues() {}

  @Override
  List<DeadLetterPeek.Queue> deadLetters() throws Exception {
    List<DeadLetterPeek.Queue> deadLetters = new ArrayList<>();
    try (KafkaView view = new KafkaView(kafka.bootstrap())) {
      for (String consumer : CONSUMERS) {
        deadLetters.add(view.deadLetters(consumer, 10_000));
      }
    }
    return deadLetters;
  }
}
