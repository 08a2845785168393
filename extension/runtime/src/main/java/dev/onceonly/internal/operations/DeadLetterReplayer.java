package dev.onceonly.internal.operations;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.messaging.BrokerConnections;
import dev.onceonly.internal.messaging.DeadLetters;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * Sends dead-lettered messages back to the queue of the consumer that dead-lettered them, and to no
 * other: through the headers exchange {@code quarkus.onceonly.dead-letters.replay-exchange}, to
 * which each consumer's queue is bound by its name ({@value #HEADER_REPLAY_TO}), with the original
 * routing key (the consumer reads the event type from it). Republishing to {@code loyalty.events}
 * instead would hand a copy to every other queue bound to that routing key.
 *
 * <p>Nothing is dropped: each message is published with {@code mandatory} and a publisher confirm
 * before it is acked in the dead-letter queue; one the broker cannot route comes back and stays in
 * the dead-letter queue, and so does every message after a failure. The report says how far the
 * replay got, also when it stopped early.
 */
@Singleton
public class DeadLetterReplayer {

  /**
   * The header a replayed message is routed by: the name of the consumer it goes back to. Not
   * {@code x-}-prefixed: a headers exchange ignores such binding arguments, and a binding that
   * ignores it would take every replay.
   */
  public static final String HEADER_REPLAY_TO = "onceonly-replay-to";

  public static final String HEADER_REPLAYED = "x-onceonly-replayed";

  private static final Logger LOG = Logger.getLogger(DeadLetterReplayer.class);
  private static final long CONFIRM_TIMEOUT_MS = 10_000;

  private final ConnectionFactory factory;
  private final String replayExchange;

  @Inject
  public DeadLetterReplayer(Config config, OnceOnlyConfig onceOnly) {
    this(BrokerConnections.factory(config), onceOnly.deadLetters().replayExchange());
  }

  public DeadLetterReplayer(ConnectionFactory factory, String replayExchange) {
    this.factory = factory;
    this.replayExchange = replayExchange;
  }

  /**
   * What one replay call did.
   *
   * @param moved messages now back in the consumer's queue
   * @param skipped messages looked at and left in the dead-letter queue
   * @param complete false when the replay stopped early ({@code problem} says why); what moved
   *     before stays moved, the rest stays in the dead-letter queue
   */
  public record Report(
      String queue,
      int moved,
      int skipped,
      boolean complete,
      String problem,
      List<Moved> messages) {}

  /** One message looked at: the routing key it goes back with, or why it stayed. */
  public record Moved(
      String exchange, String routingKey, String reason, String failure, boolean replayed) {}

  /** Replays up to {@code limit} messages of {@code consumer}'s dead-letter queue to its queue. */
  public Report replay(ConsumerSpec consumer, int limit) {
    return replay(consumer.deadLetterQueue(), consumer.name(), consumer.queue(), limit);
  }

  /**
   * Replays up to {@code limit} messages of {@code dlq} to whatever is bound to {@value
   * #replayExchange} for {@code replayTo}; binds {@code queue} for it first when not null.
   */
  public Report replay(String dlq, String replayTo, String queue, int limit) {
    List<Moved> messages = new ArrayList<>();
    int moved = 0;
    String problem = null;
    try (Connection connection = factory.newConnection("dead-letter-replay");
        Channel channel = connection.createChannel()) {
      channel.exchangeDeclare(replayExchange, BuiltinExchangeType.HEADERS, true);
      if (queue != null) {
        channel.queueBind(
            queue, replayExchange, "", Map.of("x-match", "all", HEADER_REPLAY_TO, replayTo));
      }
      AtomicReference<String> returned = new AtomicReference<>();
      channel.addReturnListener(r -> returned.set(r.getReplyCode() + " " + r.getReplyText()));
      channel.confirmSelect();
      for (int i = 0; i < limit && problem == null; i++) {
        GetResponse dead = channel.basicGet(dlq, false);
        if (dead == null) {
          break;
        }
        Map<String, Object> headers = headers(dead.getProps());
        String routingKey = DeadLetterRoutes.originalRoutingKey(headers);
        String reason = text(headers.get(DeadLetters.HEADER_REASON));
        String failure = text(headers.get(DeadLetters.HEADER_FAILURE));
        if (routingKey == null) {
          // Left unacked: it goes back to the queue when the channel closes.
          messages.add(
              new Moved(
                  replayExchange, null, "no original routing key in headers", failure, false));
          continue;
        }
        returned.set(null);
        channel.basicPublish(
            replayExchange,
            routingKey,
            true,
            republished(dead.getProps(), headers, replayTo),
            dead.getBody());
        channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
        if (returned.get() != null) {
          channel.basicNack(dead.getEnvelope().getDeliveryTag(), false, true);
          messages.add(new Moved(replayExchange, routingKey, reason, failure, false));
          problem =
              "the broker could not route the message back to "
                  + replayTo
                  + " ("
                  + returned.get()
                  + ")";
          break;
        }
        channel.basicAck(dead.getEnvelope().getDeliveryTag(), false);
        messages.add(new Moved(replayExchange, routingKey, reason, failure, true));
        moved++;
      }
    } catch (IOException | TimeoutException | RuntimeException e) {
      problem = "the broker failed during the replay: " + e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      problem = "interrupted while waiting for the broker's confirm";
    }
    int skipped = messages.size() - moved;
    if (problem != null) {
      LOG.warnf("replayed %d message(s) from %s, then stopped: %s", moved, dlq, problem);
    } else {
      LOG.infof("replayed %d message(s) from %s, %d left in place", moved, dlq, skipped);
    }
    return new Report(dlq, moved, skipped, problem == null, problem, messages);
  }

  private static Map<String, Object> headers(AMQP.BasicProperties props) {
    return props.getHeaders() == null ? Map.of() : props.getHeaders();
  }

  /** The original properties, without the dead-letter bookkeeping, routed to its consumer. */
  private static AMQP.BasicProperties republished(
      AMQP.BasicProperties props, Map<String, Object> headers, String replayTo) {
    Map<String, Object> kept = new HashMap<>(headers);
    kept.keySet()
        .removeIf(
            h -> h.startsWith("x-onceonly-") || h.startsWith("x-original-") || h.equals("x-death"));
    kept.put(HEADER_REPLAYED, true);
    kept.put(HEADER_REPLAY_TO, replayTo);
    return props.builder().headers(kept).build();
  }

  private static String text(Object value) {
    return value == null ? null : value.toString();
  }
}
