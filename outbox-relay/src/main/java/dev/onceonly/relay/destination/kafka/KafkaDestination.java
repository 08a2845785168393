package dev.onceonly.relay.destination.kafka;

import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.Destination;
import dev.onceonly.relay.destination.PublishThread;
import dev.onceonly.relay.destination.Template.MissingValue;
import dev.onceonly.relay.lease.LeasedRow;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.jboss.logging.Logger;

/**
 * A Kafka destination: each row is one record on the topic, keyed by the row's ordering key (or the
 * {@code key} template), the payload as its JSON value, the row's idempotency key in a header
 * ({@code message-id} by default: the same on every attempt, so a consumer that claims it — a
 * service on OnceOnly does — applies a repeated publish once), the row's trace context as {@code
 * traceparent}. The row is delivered when the broker acknowledges the record ({@code acks=all}); a
 * send that fails or is not acknowledged within {@code connect-timeout} + {@code send-timeout} is a
 * failed attempt, retried with backoff, never a silent drop.
 *
 * <p>The plain {@code kafka-clients} producer, not a SmallRye Reactive Messaging emitter: a
 * destination is configuration read at start, any number of them, each with its own brokers,
 * credentials and timeouts, while an emitter is a channel declared at build time with its settings
 * under {@code mp.messaging}; and each send here needs its own acknowledgement, classified by its
 * exception, which the producer's callback gives directly (the same reason the RabbitMQ destination
 * uses the AMQP client and not the connector).
 *
 * <p>One idempotent producer per destination and relay, made on first use (so a broker that is down
 * at start delays nothing), made again after an error that leaves it unusable, and closed with the
 * relay. Records are handed to it on a thread of its own: {@code send} blocks while the producer
 * waits for the topic's metadata (a broker down), which must never hold up the relay's loop.
 */
public final class KafkaDestination implements Destination {

  private static final Logger LOG = Logger.getLogger(KafkaDestination.class);

  /** Most time the producer gets to finish the sends it holds when the relay stops. */
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

  private final String name;
  private final KafkaSettings settings;
  private final ExecutorService sender;
  private KafkaProducer<String, byte[]> producer; // sender thread only (and close)
  private volatile boolean broken;

  public KafkaDestination(String name, KafkaSettings settings) {
    this.name = name;
    this.settings = settings;
    this.sender = PublishThread.of("kafka", name);
  }

  @Override
  public String target() {
    return settings.target();
  }

  @Override
  public CompletableFuture<DeliveryResult> send(LeasedRow row, String traceParent) {
    String key;
    try {
      key = recordKey(row);
    } catch (MissingValue e) {
      return CompletableFuture.completedFuture(
          DeliveryResult.unsendable("cannot build the record key: " + e.getMessage()));
    }
    ProducerRecord<String, byte[]> record =
        new ProducerRecord<>(
            settings.topic(),
            null,
            key,
            row.payload().getBytes(StandardCharsets.UTF_8),
            headers(row, traceParent));
    CompletableFuture<DeliveryResult> result = new CompletableFuture<>();
    try {
      sender.execute(() -> publish(record, result));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return CompletableFuture.completedFuture(
          DeliveryResult.noAnswer("the destination is closing"));
    }
    long within = settings.connectTimeout().plus(settings.sendTimeout()).toMillis() + 1_000;
    return result
        .orTimeout(within, TimeUnit.MILLISECONDS)
        .exceptionally(
            error ->
                error instanceof TimeoutException
                    ? DeliveryResult.noAnswer(
                        "no acknowledgement from Kafka within " + within + " ms")
                    : DeliveryResult.noAnswer("publish failed: " + error));
  }

  private void publish(
      ProducerRecord<String, byte[]> record, CompletableFuture<DeliveryResult> result) {
    if (result.isDone()) {
      return; // timed out while waiting for this thread
    }
    KafkaProducer<String, byte[]> open;
    try {
      open = producer();
    } catch (KafkaException e) {
      result.complete(
          DeliveryResult.noAnswer(
              "cannot make a producer for " + settings.bootstrapServers() + ": " + describe(e)));
      return;
    }
    try {
      open.send(record, (metadata, error) -> result.complete(outcome(metadata, error)));
    } catch (KafkaException e) {
      // Thrown by send itself: no metadata within connect-timeout, a record too large, ...
      result.complete(outcome(null, e));
    } catch (RuntimeException e) {
      result.complete(DeliveryResult.noAnswer("publish failed: " + describe(e)));
    }
  }

  /**
   * What a send came to. Too large or invalid records never fit: final. An authorization the broker
   * refuses is its answer, not an outage (like a returned RabbitMQ message). Everything else — no
   * metadata or acknowledgement in time, a broker that cannot be reached, authentication refused, a
   * producer left unusable — means the destination cannot take records now: an outage, retried.
   */
  DeliveryResult outcome(RecordMetadata metadata, Exception error) {
    if (error == null) {
      return DeliveryResult.taken();
    }
    String text = "not acknowledged by Kafka (topic " + settings.topic() + "): " + describe(error);
    if (error instanceof RecordTooLargeException
        || error instanceof RecordBatchTooLargeException
        || error instanceof InvalidRecordException
        || error instanceof SerializationException) {
      return DeliveryResult.unsendable(text);
    }
    if (error instanceof AuthorizationException) {
      return DeliveryResult.failed(text, false);
    }
    if (!(error instanceof RetriableException)) {
      // Authentication refused, a fenced or out-of-sequence producer, an unsupported version: the
      // producer may be unusable; the next send makes a new one.
      broken = true;
    }
    return DeliveryResult.noAnswer(text);
  }

  private List<Header> headers(LeasedRow row, String traceParent) {
    List<Header> headers = new ArrayList<>(4);
    headers.add(header(settings.idempotencyHeader(), row.idempotencyKey()));
    headers.add(header("content-type", "application/json"));
    if (traceParent != null) {
      headers.add(header("traceparent", traceParent));
    }
    return headers;
  }

  private static Header header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }

  private String recordKey(LeasedRow row) throws MissingValue {
    return settings.key() == null ? row.orderingKey() : settings.key().render(row, value -> value);
  }

  /** The producer, made first when there is none or the last one was left unusable. */
  private KafkaProducer<String, byte[]> producer() {
    if (producer != null && !broken) {
      return producer;
    }
    if (producer != null) {
      LOG.warnf("destination %s: making a new Kafka producer after an error", name);
      producer.close(Duration.ZERO);
      producer = null;
    }
    broken = false;
    producer = new KafkaProducer<>(settings.producerProperties("onceonly-relay-" + name));
    LOG.infof("destination %s: producer for %s made", name, settings.bootstrapServers());
    return producer;
  }

  private static String describe(Throwable e) {
    Throwable cause = e;
    StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
      if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
        text.append(" (").append(cause.getMessage()).append(')');
      }
    }
    return e.getClass().getSimpleName() + ": " + text;
  }

  @Override
  public void close() {
    // Records not handed over yet fail by their timeout; one waiting for metadata is interrupted.
    sender.shutdownNow();
    try {
      sender.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    KafkaProducer<String, byte[]> current = producer;
    producer = null;
    if (current != null) {
      current.close(CLOSE_TIMEOUT);
    }
  }
}
