package dev.onceonly.internal.messaging;

import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.config.OnceOnlyConfig.QueueType;
import dev.onceonly.internal.config.OnceOnlyConfig.Queues;
import io.quarkus.arc.Unremovable;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * The arguments every consumer's queue and dead-letter queue are declared with, from {@code
 * quarkus.onceonly.queues}: the connector takes them from the beans named {@value #CONSUMER_QUEUE}
 * and {@value #DEAD_LETTER_QUEUE}, which every consumer's channel names by default ({@code
 * queue.arguments}, {@code dead-letter-queue.arguments}). Beans rather than channel attributes
 * because the delivery limit exists for quorum queues only: a classic queue is declared with no
 * argument of the platform's, exactly as before quorum became the default, so an existing classic
 * queue still matches.
 */
@Singleton
public class QueueArguments {

  /** The bean the consumer queues' arguments come from. */
  public static final String CONSUMER_QUEUE = "onceonly-queue-arguments";

  /** The bean the dead-letter queues' arguments come from. */
  public static final String DEAD_LETTER_QUEUE = "onceonly-dead-letter-queue-arguments";

  static final String TYPE = "x-queue-type";
  static final String DELIVERY_LIMIT = "x-delivery-limit";

  @Produces
  @Singleton
  @Unremovable
  @Identifier(CONSUMER_QUEUE)
  Map<String, Object> consumerQueueBean(OnceOnlyConfig config) {
    return consumerQueue(config.queues());
  }

  @Produces
  @Singleton
  @Unremovable
  @Identifier(DEAD_LETTER_QUEUE)
  Map<String, Object> deadLetterQueueBean(OnceOnlyConfig config) {
    return deadLetterQueue(config.queues());
  }

  /** A consumer queue's: quorum with the delivery limit, or none for classic. */
  public static Map<String, Object> consumerQueue(Queues queues) {
    return queues.type() == QueueType.QUORUM
        ? Map.of(TYPE, queues.type().argument(), DELIVERY_LIMIT, queues.deliveryLimit())
        : Map.of();
  }

  /**
   * A dead-letter queue's: quorum without a delivery limit (nothing consumes it but a replay, and a
   * limit there would drop dead letters, the queue having no dead-letter exchange of its own), or
   * none for classic.
   */
  public static Map<String, Object> deadLetterQueue(Queues queues) {
    return queues.type() == QueueType.QUORUM ? Map.of(TYPE, queues.type().argument()) : Map.of();
  }
}
