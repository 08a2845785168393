package dev.onceonly.consumer.messaging;

import dev.onceonly.consumer.ConsumerName;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import io.smallrye.reactive.messaging.rabbitmq.OutgoingRabbitMQMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

/**
 * Moves a message to its consumer's dead-letter queue with the reason in headers, through the
 * dead-letter exchange, and waits for the broker's publisher confirm before the caller acks the
 * original: a crash in between leaves a copy in both places, never in neither.
 */
@ApplicationScoped
public class DeadLetters {

  /** Why the message was dead-lettered, for the operator who reads the queue. */
  public static final String HEADER_REASON = "x-onceonly-reason";

  /** {@code invalid} (never retry as is) or {@code transient} (replaying may succeed). */
  public static final String HEADER_FAILURE = "x-onceonly-failure";

  public static final String HEADER_CONSUMER = "x-onceonly-consumer";
  public static final String HEADER_ORIGINAL_EXCHANGE = "x-original-exchange";
  public static final String HEADER_ORIGINAL_ROUTING_KEY = "x-original-routing-key";

  private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(10);

  private final MutinyEmitter<byte[]> emitter;

  public DeadLetters(@Channel("dead-letters") MutinyEmitter<byte[]> emitter) {
    this.emitter = emitter;
  }

  /** Publishes and waits for the confirm; throws if the broker did not take it. */
  public void send(
      ConsumerName consumer,
      IncomingRabbitMQMetadata original,
      byte[] body,
      String failure,
      String reason) {
    OutgoingRabbitMQMetadata metadata =
        OutgoingRabbitMQMetadata.builder()
            .withRoutingKey(Queues.queue(consumer))
            .withContentType(original.getContentType().orElse("application/json"))
            .withDeliveryMode(2)
            .withHeaders(original.getHeaders())
            .withHeader(HEADER_REASON, reason)
            .withHeader(HEADER_FAILURE, failure)
            .withHeader(HEADER_CONSUMER, consumer.value())
            .withHeader(HEADER_ORIGINAL_EXCHANGE, original.getExchange())
            .withHeader(HEADER_ORIGINAL_ROUTING_KEY, original.getRoutingKey())
            .build();
    emitter.sendMessage(Message.of(body, Metadata.of(metadata))).await().atMost(CONFIRM_TIMEOUT);
  }
}
