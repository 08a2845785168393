package dev.onceonly.internal.messaging;

import dev.onceonly.internal.catalog.ConsumerSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * The queues the RabbitMQ connector declares for a consumer's channel, with the arguments it
 * declares them with, worked out from the channel's settings the way the connector does (its
 * channel attributes {@code queue.*}, {@code auto-bind-dlq}, {@code dead-letter-*}, each falling
 * back to {@code mp.messaging.connector.smallrye-rabbitmq.*}): first the arguments bean the channel
 * names, then the attributes, a later one replacing an earlier one. {@code QueueTypeCheck}
 * redeclares an existing queue with exactly these, which RabbitMQ accepts only when they are the
 * queue's own.
 */
public final class DeclaredQueues {

  /** One queue: its name, its arguments, and whether it is a dead-letter queue. */
  public record DeclaredQueue(String name, Map<String, Object> arguments, boolean deadLetters) {}

  private DeclaredQueues() {}

  /**
   * The consumer's queue (unless the channel says {@code queue.declare=false}) and its dead-letter
   * queue (with {@code auto-bind-dlq=true}); {@code beans} gives the arguments bean of an
   * identifier, or null when there is none.
   */
  public static List<DeclaredQueue> of(
      ConsumerSpec consumer, Config config, Function<String, Map<String, ?>> beans) {
    Attributes channel = new Attributes(config, consumer.channel());
    String queue = channel.get("queue.name").orElse(consumer.channel());
    boolean deadLetters = channel.get("auto-bind-dlq").map(Boolean::parseBoolean).orElse(false);
    List<DeclaredQueue> declared = new ArrayList<>();
    if (channel.get("queue.declare").map(Boolean::parseBoolean).orElse(true)) {
      Map<String, Object> args = new LinkedHashMap<>();
      channel
          .get("queue.arguments")
          .or(() -> Optional.of("rabbitmq-queue-arguments"))
          .map(beans)
          .ifPresent(args::putAll);
      if (deadLetters) {
        args.put("x-dead-letter-exchange", channel.get("dead-letter-exchange").orElse("DLX"));
        args.put("x-dead-letter-routing-key", channel.get("dead-letter-routing-key").orElse(queue));
      }
      channel
          .get("queue.single-active-consumer")
          .map(Boolean::parseBoolean)
          .ifPresent(v -> args.put("x-single-active-consumer", v));
      channel.get("queue.x-queue-type").ifPresent(v -> args.put("x-queue-type", v));
      channel.get("queue.x-queue-mode").ifPresent(v -> args.put("x-queue-mode", v));
      channel.get("queue.ttl").map(Long::parseLong).ifPresent(v -> args.put("x-message-ttl", v));
      channel
          .get("queue.x-max-priority")
          .map(Integer::parseInt)
          .ifPresent(v -> args.put("x-max-priority", v));
      channel
          .get("queue.x-delivery-limit")
          .map(Long::parseLong)
          .ifPresent(v -> args.put("x-delivery-limit", v));
      declared.add(new DeclaredQueue(queue, args, false));
    }
    if (deadLetters) {
      Map<String, Object> args = new LinkedHashMap<>();
      channel.get("dead-letter-queue.arguments").map(beans).ifPresent(args::putAll);
      channel.get("dead-letter-dlx").ifPresent(v -> args.put("x-dead-letter-exchange", v));
      channel
          .get("dead-letter-dlx-routing-key")
          .ifPresent(v -> args.put("x-dead-letter-routing-key", v));
      channel.get("dead-letter-queue-type").ifPresent(v -> args.put("x-queue-type", v));
      channel.get("dead-letter-queue-mode").ifPresent(v -> args.put("x-queue-mode", v));
      channel
          .get("dead-letter-ttl")
          .map(Long::parseLong)
          .ifPresent(v -> args.put("x-message-ttl", v));
      String name = channel.get("dead-letter-queue-name").orElse(queue + ".dlq");
      declared.add(new DeclaredQueue(name, args, true));
    }
    return declared;
  }

  /** A channel's attributes, each falling back to the connector's. */
  private record Attributes(Config config, String channel) {
    Optional<String> get(String attribute) {
      return config
          .getOptionalValue("mp.messaging.incoming." + channel + "." + attribute, String.class)
          .or(
              () ->
                  config.getOptionalValue(
                      "mp.messaging.connector.smallrye-rabbitmq." + attribute, String.class));
    }
  }
}
