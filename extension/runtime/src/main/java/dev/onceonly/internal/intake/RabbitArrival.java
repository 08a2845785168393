package dev.onceonly.internal.intake;

import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.messaging.DeadLetters;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import io.smallrye.reactive.messaging.rabbitmq.RabbitMQRejectMetadata;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/**
 * A message from RabbitMQ (the SmallRye RabbitMQ connector). Its ack goes through its channel's
 * {@link AckWindow}, which acks committed messages together; every other way out is the connector's
 * frame, and the window is told when that leaves so that no ack covers the message before.
 */
final class RabbitArrival extends Arrival {

  private static final Logger LOG = Logger.getLogger(RabbitArrival.class);

  private final IncomingRabbitMQMetadata meta;
  private final DeadLetters deadLetters;
  private final RabbitAcks.Slotted slotted;
  private final Runnable ackedAlone;

  /**
   * {@code slotted} is the message's place in its channel's ack window, or null to ack it alone,
   * which then runs {@code ackedAlone}.
   */
  RabbitArrival(
      Message<byte[]> message,
      IncomingRabbitMQMetadata meta,
      DeadLetters deadLetters,
      RabbitAcks.Slotted slotted,
      Runnable ackedAlone) {
    super(message);
    this.meta = meta;
    this.deadLetters = deadLetters;
    this.slotted = slotted;
    this.ackedAlone = ackedAlone;
  }

  @Override
  public String subject() {
    return meta.getRoutingKey();
  }

  @Override
  public Optional<String> messageId() {
    return meta.getMessageId();
  }

  @Override
  public Map<String, Object> headers() {
    Map<String, Object> headers = meta.getHeaders();
    return headers == null ? Map.of() : headers;
  }

  @Override
  public boolean redelivered() {
    return meta.isRedeliver();
  }

  @Override
  public String system() {
    return "rabbitmq";
  }

  @Override
  public CompletionStage<Void> ack() {
    if (slotted == null) {
      ackedAlone.run();
      return super.ack();
    }
    slotted.window().ack(slotted.slot());
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletionStage<Void> requeue(Throwable cause) {
    leaving();
    return left(message().nack(cause, Metadata.of(new RabbitMQRejectMetadata(true))));
  }

  /**
   * Published to the dead-letter exchange with the reason in headers and confirmed by the broker
   * before the original is acked; a dead letter the broker refused rejects the original to its
   * queue's own dead-letter exchange instead.
   */
  @Override
  public CompletionStage<Void> deadLetter(
      ConsumerSpec consumer, String failure, String reason, Throwable cause) {
    leaving();
    return deadLetters
        .send(consumer, DeadLetters.Original.of(meta), body(), failure, reason)
        .handle(
            (confirmed, e) -> {
              if (e == null) {
                return ack();
              }
              LOG.errorf(
                  e, "%s: dead-letter publish failed, rejecting to the DLX", consumer.name());
              return left(message().nack(e, Metadata.of(new RabbitMQRejectMetadata(false))));
            })
        .thenCompose(settled -> settled);
  }

  @Override
  public void reject(Throwable cause) {
    leaving();
    left(message().nack(cause, Metadata.of(new RabbitMQRejectMetadata(false))));
  }

  /** From now until {@link #left}, no ack of the window covers this message. */
  private void leaving() {
    if (slotted != null) {
      slotted.window().leaving(slotted.slot());
    }
  }

  /**
   * Once the connector's frame for this message is on its way, acks may cover it again; if the
   * connector failed to send it, none ever does (its window acks each message alone from then on).
   */
  private CompletionStage<Void> left(CompletionStage<Void> nack) {
    if (slotted == null) {
      return nack;
    }
    return nack.whenComplete(
        (ok, e) -> {
          if (e == null) {
            slotted.window().left(slotted.slot());
          } else {
            slotted.window().lost(slotted.slot());
          }
        });
  }
}
