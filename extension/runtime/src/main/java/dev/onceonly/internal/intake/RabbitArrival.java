package dev.onceonly.internal.intake;

import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.messaging.DeadLetters;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import io.smallrye.reactive.messaging.rabbitmq.RabbitMQRejectMetadata;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

/** A message from RabbitMQ (the SmallRye RabbitMQ connector). */
final class RabbitArrival extends Arrival {

  private static final Logger LOG = Logger.getLogger(RabbitArrival.class);

  private final IncomingRabbitMQMetadata meta;
  private final DeadLetters deadLetters;

  RabbitArrival(Message<byte[]> message, IncomingRabbitMQMetadata meta, DeadLetters deadLetters) {
    super(message);
    this.meta = meta;
    this.deadLetters = deadLetters;
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
  public CompletionStage<Void> requeue(Throwable cause) {
    return message().nack(cause, Metadata.of(new RabbitMQRejectMetadata(true)));
  }

  /**
   * Published to the dead-letter exchange with the reason in headers and confirmed by the broker
   * before the original is acked; a dead letter the broker refused rejects the original to its
   * queue's own dead-letter exchange instead.
   */
  @Override
  public CompletionStage<Void> deadLetter(
      ConsumerSpec consumer, String failure, String reason, Throwable cause) {
    return deadLetters
        .send(consumer, DeadLetters.Original.of(meta), body(), failure, reason)
        .handle(
            (confirmed, e) -> {
              if (e == null) {
                return message().ack();
              }
              LOG.errorf(
                  e, "%s: dead-letter publish failed, rejecting to the DLX", consumer.name());
              return message().nack(e, Metadata.of(new RabbitMQRejectMetadata(false)));
            })
        .thenCompose(settled -> settled);
  }

  @Override
  public void reject(Throwable cause) {
    message().nack(cause, Metadata.of(new RabbitMQRejectMetadata(false)));
  }
}
