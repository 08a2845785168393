package dev.onceonly.consumer.messaging;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.metrics.ConsumerMetrics;
import dev.onceonly.consumer.processing.GroupCommit;
import dev.onceonly.consumer.processing.Submission;
import dev.onceonly.consumer.processing.TransientFailures;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.InvalidEventException;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import io.smallrye.reactive.messaging.rabbitmq.RabbitMQRejectMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
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
 */
@ApplicationScoped
public class EventListener {

  private static final Logger LOG = Logger.getLogger(EventListener.class);

  private final GroupCommit groupCommit;
  private final DeadLetters deadLetters;
  private final ConsumerMetrics metrics;

  public EventListener(GroupCommit groupCommit, DeadLetters deadLetters, ConsumerMetrics metrics) {
    this.groupCommit = groupCommit;
    this.deadLetters = deadLetters;
    this.metrics = metrics;
  }

  @Incoming("loyalty")
  @Blocking(value = "onceonly-consumers", ordered = false)
  public CompletionStage<Void> loyalty(Message<byte[]> message) {
    return handle(ConsumerName.LOYALTY, message);
  }

  @Incoming("receipts")
  @Blocking(value = "onceonly-consumers", ordered = false)
  public CompletionStage<Void> receipts(Message<byte[]> message) {
    return handle(ConsumerName.RECEIPTS, message);
  }

  @Incoming("profiles")
  @Blocking(value = "onceonly-consumers", ordered = false)
  public CompletionStage<Void> profiles(Message<byte[]> message) {
    return handle(ConsumerName.PROFILES, message);
  }

  CompletionStage<Void> handle(ConsumerName consumer, Message<byte[]> message) {
    long started = System.nanoTime();
    IncomingRabbitMQMetadata meta =
        message
            .getMetadata(IncomingRabbitMQMetadata.class)
            .orElseThrow(() -> new IllegalStateException("not a RabbitMQ message"));
    byte[] body = message.getPayload();
    DecodedEvent decoded;
    try {
      decoded = EventCodec.decode(meta.getRoutingKey(), body);
      if (!consumer.handles(decoded.event().type())) {
        throw new InvalidEventException(
            "consumer " + consumer.value() + " does not handle " + meta.getRoutingKey());
      }
    } catch (InvalidEventException e) {
      LOG.warnf(
          "dead-lettering invalid message on %s (routing key %s): %s",
          consumer.value(), meta.getRoutingKey(), e.getMessage());
      return deadLetter(consumer, message, meta, body, "invalid", e.getMessage());
    }
    String key = decoded.event().messageKey();
    return groupCommit
        .decide(new Submission(consumer, decoded, new String(body, StandardCharsets.UTF_8)))
        .thenCompose(
            decision -> {
              if (decision.failure() != null) {
                return failed(consumer, message, meta, body, key, decision.failure());
              }
              Outcome outcome = decision.outcome();
              metrics.outcome(consumer, outcome, Duration.ofNanos(System.nanoTime() - started));
              if (outcome == Outcome.CONFLICT) {
                LOG.warnf("%s: conflicting payload for %s quarantined", consumer.value(), key);
              }
              return message.ack();
            });
  }

  private CompletionStage<Void> failed(
      ConsumerName consumer,
      Message<byte[]> message,
      IncomingRabbitMQMetadata meta,
      byte[] body,
      String key,
      RuntimeException e) {
    if (TransientFailures.isTransient(e) && !meta.isRedeliver()) {
      LOG.warnf(e, "%s: %s failed for a transient reason, requeued once", consumer.value(), key);
      metrics.requeued(consumer);
      return message.nack(e, Metadata.of(new RabbitMQRejectMetadata(true)));
    }
    LOG.errorf(e, "%s: %s failed, dead-lettering", consumer.value(), key);
    return deadLetter(consumer, message, meta, body, "transient", String.valueOf(e));
  }

  private CompletionStage<Void> deadLetter(
      ConsumerName consumer,
      Message<byte[]> message,
      IncomingRabbitMQMetadata meta,
      byte[] body,
      String failure,
      String reason) {
    try {
      deadLetters.send(consumer, meta, body, failure, reason);
    } catch (RuntimeException e) {
      LOG.errorf(e, "%s: dead-letter publish failed, rejecting to the DLX", consumer.value());
      metrics.deadLettered(consumer);
      return message.nack(e, Metadata.of(new RabbitMQRejectMetadata(false)));
    }
    metrics.deadLettered(consumer);
    return message.ack();
  }
}
