package dev.onceonly.internal.intake;

import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.messaging.DeadLetters;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * A record from Kafka (the SmallRye Kafka connector). Its key for the claim is the producer's, read
 * from a header or the body like on RabbitMQ, never its partition and offset: a record re-read
 * after a rebalance or a crash has the key it had. Acking hands its offset to the connector's
 * {@code throttled} commit strategy, which commits it once every record before it in its partition
 * was acked too.
 *
 * <p>A partition is a log: a record cannot be put back for later. A transient failure is instead
 * handled once more here ({@link #requeue}), the same second chance RabbitMQ's requeue gives, and a
 * second failure dead-letters it as {@code transient}. Dead letters go to the consumer's
 * dead-letter topic through the connector's {@code dead-letter-queue} strategy, with the platform's
 * reason headers; the connector acks the original only once the dead letter was written.
 */
final class KafkaArrival extends Arrival {

  private final IncomingKafkaRecordMetadata<?, ?> meta;
  private final Function<Arrival, CompletionStage<Void>> again;
  private volatile boolean retried;

  private KafkaArrival(
      Message<byte[]> message,
      IncomingKafkaRecordMetadata<?, ?> meta,
      Function<Arrival, CompletionStage<Void>> again) {
    super(message);
    this.meta = meta;
    this.again = again;
  }

  /**
   * The record as an arrival, or empty for a message of another connector; {@code again} handles it
   * a second time after a transient failure.
   */
  static Optional<Arrival> of(
      Message<byte[]> message, Function<Arrival, CompletionStage<Void>> again) {
    return message
        .getMetadata(IncomingKafkaRecordMetadata.class)
        .map(meta -> new KafkaArrival(message, meta, again));
  }

  @Override
  public String subject() {
    return meta.getTopic();
  }

  @Override
  public Optional<String> messageId() {
    return Optional.ofNullable(header("message-id"));
  }

  /** The record's headers, each value decoded as UTF-8 (the last of a repeated header wins). */
  @Override
  public Map<String, Object> headers() {
    Map<String, Object> headers = new LinkedHashMap<>();
    for (Header h : meta.getHeaders()) {
      headers.put(
          h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
    }
    return Collections.unmodifiableMap(headers);
  }

  private String header(String name) {
    Header h = meta.getHeaders().lastHeader(name);
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  /** Whether this record was handled once already in this process (a transient failure). */
  @Override
  public boolean redelivered() {
    return retried;
  }

  @Override
  public String system() {
    return "kafka";
  }

  /** Handles the record a second time, at once: its partition cannot take it back. */
  @Override
  public CompletionStage<Void> requeue(Throwable cause) {
    retried = true;
    return again.apply(this);
  }

  @Override
  public CompletionStage<Void> deadLetter(
      ConsumerSpec consumer, String failure, String reason, Throwable cause) {
    OutgoingKafkaRecordMetadata<?> headers =
        OutgoingKafkaRecordMetadata.builder()
            .withHeaders(
                List.of(
                    header(DeadLetters.HEADER_REASON, reason),
                    header(DeadLetters.HEADER_FAILURE, failure),
                    header(DeadLetters.HEADER_CONSUMER, consumer.name())))
            .build();
    return message().nack(new DeadLetterReason(reason, cause), Metadata.of(headers));
  }

  /** Nacked without the platform's headers: the connector's dead-letter topic still takes it. */
  @Override
  public void reject(Throwable cause) {
    message().nack(cause);
  }

  private static RecordHeader header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }

  /** The reason as the connector writes it ({@code dead-letter-reason}), without a stack trace. */
  static final class DeadLetterReason extends RuntimeException {
    DeadLetterReason(String reason, Throwable cause) {
      super(reason, cause, false, false);
    }
  }
}
