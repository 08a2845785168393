package dev.onceonly.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes an {@link IdempotentHandler} a consumer: every message of its channel is decoded, claimed
 * by its key and handed to the handler in the claim's transaction, and acked after commit. The
 * class must be a bean ({@code @ApplicationScoped} or {@code @Singleton}); the build fails, naming
 * the class, when it is not, when it names no channel, when two consumers share a name, or when its
 * event type cannot be decoded.
 *
 * <pre>{@code
 * @ApplicationScoped
 * @OnceOnlyConsumer(name = "shipping", channel = "orders")
 * public class ShipOrder implements IdempotentHandler<OrderPlaced> { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface OnceOnlyConsumer {

  /**
   * The consumer's name: its claims, conflicts and rejections are kept under it, and its metrics,
   * dead letters and per-consumer settings ({@code quarkus.onceonly.consumers."<name>".*}) carry
   * it. 1 to 64 letters, digits, {@code -} or {@code _}. Two consumers may read the same events;
   * each has its own claims, so neither blocks the other.
   */
  String name();

  /**
   * The SmallRye Reactive Messaging incoming channel it consumes, configured as any other ({@code
   * mp.messaging.incoming.<channel>.connector=smallrye-rabbitmq}, its queue, exchange and routing
   * keys). The extension adds what exactness needs to that channel's settings (bodies as bytes, a
   * dead-letter queue, manual acknowledgement, a paused start until the schema is complete).
   */
  String channel();

  /**
   * Whether each message takes a claim. {@code false} only for an effect that is idempotent and
   * tolerant of reordering by itself (a version-guarded upsert): such a consumer keeps the date
   * windows and the dead letters but writes no claim row.
   */
  boolean claim() default true;

  /**
   * How a body becomes an event. The default ({@code MessageDecoder.class} itself) reads the body
   * as JSON into the handler's event type with Jackson, refusing trailing content, and takes the
   * message key, date and lock order from the event ({@link Keyed}, {@link Dated}, {@link
   * LockOrdered}) or the consumer's key settings. A decoder of your own must be a bean.
   */
  @SuppressWarnings("rawtypes")
  Class<? extends MessageDecoder> decoder() default MessageDecoder.class;
}
