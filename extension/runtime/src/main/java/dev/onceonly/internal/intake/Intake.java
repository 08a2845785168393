package dev.onceonly.internal.intake;

import dev.onceonly.api.Decoded;
import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.messaging.DeadLetters;
import dev.onceonly.internal.messaging.InvalidMessageLog;
import dev.onceonly.internal.messaging.MessageTracing;
import dev.onceonly.internal.messaging.TraceLogging;
import dev.onceonly.internal.metrics.ConsumerMetrics;
import dev.onceonly.internal.processing.GroupCommit;
import dev.onceonly.internal.processing.Submission;
import dev.onceonly.internal.processing.TransientFailures;
import dev.onceonly.internal.processing.Verdict;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Where every consumer's messages come in (each generated channel listener hands its messages
 * here). Per message: decode and validate (invalid → dead letter with reason, acked, never
 * redelivered), then the claim transaction, shared with other messages waiting at the same time
 * ({@link GroupCommit}), then ack, on the committer's thread once the transaction committed: ack
 * comes only after commit, in every outcome. A failure before commit requeues once, then
 * dead-letters as {@code transient} so that an operator can replay it.
 *
 * <p>Decoding and queueing run on the connector's event loop, which never waits: the transaction
 * runs on a committer thread and the dead letter is published by its own thread. (Handed to a pool
 * of worker threads first, every message woke one, and the consumers spent a fifth more CPU per
 * healthy message in chaos scenario 7: 0.66-0.68 ms against 0.52.)
 */
@Singleton
public class Intake {

  private static final Logger LOG = Logger.getLogger(Intake.class);

  private final ConsumerCatalog catalog;
  private final GroupCommit groupCommit;
  private final DeadLetters deadLetters;
  private final ConsumerMetrics metrics;
  private final MessageTracing tracing;
  private final InvalidMessageLog invalidLog;
  private final RabbitAcks rabbitAcks;

  /** Per Kafka consumer, its messages in hand (RabbitMQ's prefetch bounds the others). */
  private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();

  public Intake(
      ConsumerCatalog catalog,
      GroupCommit groupCommit,
      DeadLetters deadLetters,
      ConsumerMetrics metrics,
      MessageTracing tracing,
      InvalidMessageLog invalidLog,
      RabbitAcks rabbitAcks) {
    this.catalog = catalog;
    this.groupCommit = groupCommit;
    this.deadLetters = deadLetters;
    this.metrics = metrics;
    this.tracing = tracing;
    this.invalidLog = invalidLog;
    this.rabbitAcks = rabbitAcks;
  }

  /**
   * Takes one message of consumer {@code consumer} in and returns at once, on the connector's event
   * loop: the message is acked or nacked later by whoever settles it (a committer, or the
   * dead-letter publisher's confirm).
   */
  public CompletionStage<Void> takeIn(String consumer, Message<byte[]> message) {
    ConsumerSpec spec = catalog.get(consumer);
    Arrival arrival = arrival(spec, message);
    Consumer<Throwable> unsettled =
        e -> {
          LOG.errorf(e, "%s: handling failed, rejecting to the dead letters", consumer);
          arrival.reject(e);
        };
    if (!spec.kafka()) {
      return takeIn(() -> handle(spec, arrival), unsettled, () -> {});
    }
    InFlight limit = inFlight.computeIfAbsent(consumer, name -> new InFlight(spec.maxInFlight()));
    CompletionStage<Void> room = limit.enter();
    takeIn(() -> handle(spec, arrival), unsettled, limit::leave);
    return room;
  }

  /** The message as its broker delivered it. */
  Arrival arrival(ConsumerSpec consumer, Message<byte[]> message) {
    if (consumer.kafka()) {
      // Only here: the Kafka connector is an optional dependency of the extension.
      return KafkaArrival.of(message, again -> handle(consumer, again))
          .orElseThrow(() -> unsupported(consumer, message));
    }
    IncomingRabbitMQMetadata rabbit =
        message.getMetadata(IncomingRabbitMQMetadata.class).orElse(null);
    if (rabbit != null) {
      return new RabbitArrival(
          message,
          rabbit,
          deadLetters,
          rabbitAcks.delivered(consumer.name(), message).orElse(null),
          () -> metrics.ackSent(consumer.name()));
    }
    throw unsupported(consumer, message);
  }

  private static IllegalStateException unsupported(ConsumerSpec consumer, Message<byte[]> message) {
    return new IllegalStateException(
        consumer.name()
            + ": a message that is not from "
            + consumer.connector()
            + ", the connector of channel "
            + consumer.channel()
            + ": "
            + message.getMetadata());
  }

  /**
   * Starts {@code handling} a message and returns at once: a failure nothing else settled (a bug,
   * an error in a committer), thrown at once or later, goes to {@code unsettled}.
   */
  static CompletionStage<Void> takeIn(
      Supplier<CompletionStage<Void>> handling, Consumer<Throwable> unsettled) {
    return takeIn(handling, unsettled, () -> {});
  }

  /** As {@link #takeIn(Supplier, Consumer)}, and runs {@code settled} once the message is. */
  static CompletionStage<Void> takeIn(
      Supplier<CompletionStage<Void>> handling, Consumer<Throwable> unsettled, Runnable left) {
    CompletionStage<Void> settled;
    try {
      settled = handling.get();
    } catch (RuntimeException e) {
      settled = CompletableFuture.failedFuture(e);
    }
    settled.whenComplete(
        (ok, e) -> {
          try {
            if (e != null) {
              unsettled.accept(e instanceof CompletionException ? e.getCause() : e);
            }
          } finally {
            left.run();
          }
        });
    return CompletableFuture.completedFuture(null);
  }

  /** Handles one message: the stage completes once it was acked or nacked. */
  CompletionStage<Void> handle(ConsumerSpec consumer, Arrival arrival) {
    long started = System.nanoTime();
    Span span = tracing.start(consumer, arrival);
    Decoded<Object> decoded;
    try {
      decoded = consumer.decoder().decode(arrival);
    } catch (InvalidMessageException e) {
      invalidLog.invalid(consumer, arrival.subject(), e.getMessage(), span);
      return deadLetter(consumer, arrival, span, "invalid", e.getMessage(), e);
    } catch (RuntimeException e) {
      String reason = "the decoder failed: " + e;
      invalidLog.invalid(consumer, arrival.subject(), reason, span);
      return deadLetter(consumer, arrival, span, "invalid", reason, e);
    }
    String key = decoded.messageKey();
    span.setAttribute(MessageTracing.MESSAGE_KEY, key);
    Submission submission =
        new Submission(
            consumer,
            decoded,
            arrival.fingerprint(),
            new String(arrival.body(), StandardCharsets.UTF_8),
            Context.root().with(span));
    return groupCommit
        .decide(submission)
        .thenCompose(
            decision -> {
              if (decision.failure() != null) {
                return failed(consumer, arrival, span, key, decision.failure());
              }
              Verdict verdict = decision.verdict();
              metrics.outcome(
                  consumer.name(), verdict, Duration.ofNanos(System.nanoTime() - started));
              if (verdict == Verdict.CONFLICT) {
                try (TraceLogging.LogScope mdc = MessageTracing.logging(span)) {
                  LOG.warnf("%s: conflicting payload for %s quarantined", consumer.name(), key);
                }
              }
              MessageTracing.decided(span, verdict);
              return arrival.ack();
            });
  }

  private CompletionStage<Void> failed(
      ConsumerSpec consumer, Arrival arrival, Span span, String key, RuntimeException e) {
    if (TransientFailures.isTransient(e) && !arrival.redelivered()) {
      try (TraceLogging.LogScope mdc = MessageTracing.logging(span)) {
        LOG.warnf(e, "%s: %s failed for a transient reason, requeued once", consumer.name(), key);
      }
      metrics.requeued(consumer.name());
      MessageTracing.failed(span, "requeued", e);
      return arrival.requeue(e);
    }
    try (TraceLogging.LogScope mdc = MessageTracing.logging(span)) {
      LOG.errorf(e, "%s: %s failed, dead-lettering", consumer.name(), key);
    }
    return deadLetter(consumer, arrival, span, "transient", String.valueOf(e), e);
  }

  private CompletionStage<Void> deadLetter(
      ConsumerSpec consumer,
      Arrival arrival,
      Span span,
      String failure,
      String reason,
      Throwable cause) {
    MessageTracing.failed(span, "dead_lettered", cause);
    metrics.deadLettered(consumer.name());
    return arrival.deadLetter(consumer, failure, reason, cause);
  }
}
