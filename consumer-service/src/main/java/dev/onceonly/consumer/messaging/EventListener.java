package dev.onceonly.consumer.messaging;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.TraceLogging;
import dev.onceonly.consumer.metrics.ConsumerMetrics;
import dev.onceonly.consumer.processing.GroupCommit;
import dev.onceonly.consumer.processing.Submission;
import dev.onceonly.consumer.processing.TransientFailures;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.InvalidEventException;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import io.smallrye.reactive.messaging.rabbitmq.RabbitMQRejectMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/**
 * The three consumers' broker entry points. Per message: decode and validate (invalid → dead letter
 * with reason, acked, never redelivered), then the claim transaction, shared with other messages
 * waiting at the same time ({@link GroupCommit}), then ack, on the committer's thread once the
 * transaction committed: ack comes only after commit, in every outcome. A failure before commit
 * nacks: requeued once, then dead-lettered as transient so that an operator can replay it.
 *
 * <p>Decoding and queueing run on the connector's event loop, which never waits: the transaction
 * runs on a committer thread and the dead letter is published by its own thread. (Handed to a pool
 * of worker threads first, as before 2026-12-02, every message woke one, and the consumers spent a
 * fifth more CPU per healthy message in chaos scenario 7: 0.66-0.68 ms against 0.52.)
 */
@ApplicationScoped
public class EventListener {

  private static final Logger LOG = Logger.getLogger(EventListener.class);

  private final GroupCommit groupCommit;
  private final DeadLetters deadLetters;
  private final ConsumerMetrics metrics;
  private final MessageTracing tracing;
  private final InvalidMessageLog invalidLog;

  public EventListener(
      GroupCommit groupCommit,
      DeadLetters deadLetters,
      ConsumerMetrics metrics,
      MessageTracing tracing,
      InvalidMessageLog invalidLog) {
    this.groupCommit = groupCommit;
    this.deadLetters = deadLetters;
    this.metrics = metrics;
    this.tracing = tracing;
    this.invalidLog = invalidLog;
  }

  @Incoming("loyalty")
  public CompletionStage<Void> loyalty(Message<byte[]> message) {
    return takeIn(ConsumerName.LOYALTY, message);
  }

  @Incoming("receipts")
  public CompletionStage<Void> receipts(Message<byte[]> message) {
    return takeIn(ConsumerName.RECEIPTS, message);
  }

  @Incoming("profiles")
  public CompletionStage<Void> profiles(Message<byte[]> message) {
    return takeIn(ConsumerName.PROFILES, message);
  }

  private CompletionStage<Void> takeIn(ConsumerName consumer, Message<byte[]> message) {
    return takeIn(
        () -> handle(consumer, message),
        e -> {
          LOG.errorf(e, "%s: handling failed, rejecting to the DLX", consumer.value());
          message.nack(e, Metadata.of(new RabbitMQRejectMetadata(false)));
        });
  }

  /**
   * Starts {@code handling} a message and returns at once, on the connector's event loop: the
   * message is acked or nacked later, by whoever settles it (a committer, or the dead-letter
   * publisher's confirm), so the next message is taken in without waiting for this one's
   * transaction. A failure nothing else settled (a bug, an error in a committer), thrown at once or
   * later, goes to {@code unsettled}, which rejects the message to its queue's dead-letter exchange
   * as the channel's failure strategy would.
   */
  static CompletionStage<Void> takeIn(
      Supplier<CompletionStage<Void>> handling, Consumer<Throwable> unsettled) {
    CompletionStage<Void> settled;
    try {
      settled = handling.get();
    } catch (RuntimeException e) {
      settled = CompletableFuture.failedFuture(e);
    }
    settled.whenComplete(
        (ok, e) -> {
          if (e != null) {
            unsettled.accept(e instanceof CompletionException ? e.getCause() : e);
          }
        });
    return CompletableFuture.completedFuture(null);
  }

  /** Handles one message: the stage completes once it was acked or nacked. */
  CompletionStage<Void> handle(ConsumerName consumer, Message<byte[]> message) {
    long started = System.nanoTime();
    IncomingRabbitMQMetadata meta =
        message
            .getMetadata(IncomingRabbitMQMetadata.class)
            .orElseThrow(() -> new IllegalStateException("not a RabbitMQ message"));
    Delivery delivery =
        new Delivery(
            consumer,
            message,
            meta,
            message.getPayload(),
            tracing.start(consumer, meta.getHeaders()));
    DecodedEvent decoded;
    try {
      decoded = EventCodec.decode(meta.getRoutingKey(), delivery.body());
      if (!consumer.handles(decoded.event().type())) {
        throw new InvalidEventException(
            "consumer " + consumer.value() + " does not handle " + meta.getRoutingKey());
      }
    } catch (InvalidEventException e) {
      invalidLog.invalid(consumer, meta.getRoutingKey(), e.getMessage(), delivery.span());
      return deadLetter(delivery, "invalid", e.getMessage(), e);
    }
    String key = decoded.event().messageKey();
    delivery.span().setAttribute(MessageTracing.MESSAGE_KEY, key);
    Submission submission =
        new Submission(
            consumer,
            decoded,
            new String(delivery.body(), StandardCharsets.UTF_8),
            Context.root().with(delivery.span()));
    return groupCommit
        .decide(submission)
        .thenCompose(
            decision -> {
              if (decision.failure() != null) {
                return failed(delivery, key, decision.failure());
              }
              Outcome outcome = decision.outcome();
              metrics.outcome(consumer, outcome, Duration.ofNanos(System.nanoTime() - started));
              if (outcome == Outcome.CONFLICT) {
                try (TraceLogging.LogScope mdc = MessageTracing.logging(delivery.span())) {
                  LOG.warnf("%s: conflicting payload for %s quarantined", consumer.value(), key);
                }
              }
              MessageTracing.decided(delivery.span(), outcome);
              return message.ack();
            });
  }

  private CompletionStage<Void> failed(Delivery delivery, String key, RuntimeException e) {
    ConsumerName consumer = delivery.consumer();
    if (TransientFailures.isTransient(e) && !delivery.meta().isRedeliver()) {
      try (TraceLogging.LogScope mdc = MessageTracing.logging(delivery.span())) {
        LOG.warnf(e, "%s: %s failed for a transient reason, requeued once", consumer.value(), key);
      }
      metrics.requeued(consumer);
      MessageTracing.failed(delivery.span(), "requeued", e);
      return delivery.message().nack(e, Metadata.of(new RabbitMQRejectMetadata(true)));
    }
    try (TraceLogging.LogScope mdc = MessageTracing.logging(delivery.span())) {
      LOG.errorf(e, "%s: %s failed, dead-lettering", consumer.value(), key);
    }
    return deadLetter(delivery, "transient", String.valueOf(e), e);
  }

  private CompletionStage<Void> deadLetter(
      Delivery delivery, String failure, String reason, Throwable cause) {
    ConsumerName consumer = delivery.consumer();
    MessageTracing.failed(delivery.span(), "dead_lettered", cause);
    metrics.deadLettered(consumer);
    return deadLetters
        .send(consumer, DeadLetters.Original.of(delivery.meta()), delivery.body(), failure, reason)
        .handle(
            (confirmed, e) -> {
              if (e == null) {
                return delivery.message().ack();
              }
              LOG.errorf(
                  e, "%s: dead-letter publish failed, rejecting to the DLX", consumer.value());
              return delivery.message().nack(e, Metadata.of(new RabbitMQRejectMetadata(false)));
            })
        .thenCompose(settled -> settled);
  }

  /** One message being handled: where it came from, its body, and its span. */
  private record Delivery(
      ConsumerName consumer,
      Message<byte[]> message,
      IncomingRabbitMQMetadata meta,
      byte[] body,
      Span span) {}
}
