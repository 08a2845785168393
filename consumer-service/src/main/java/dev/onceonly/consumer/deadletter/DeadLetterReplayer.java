package dev.onceonly.consumer.deadletter;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.onceonly.consumer.messaging.DeadLetters;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Moves dead-lettered messages back to the exchange and routing key they first came through, with
 * their body and properties, at most {@code limit} per call. Each message is republished with a
 * publisher confirm before it is acked in the dead-letter queue, so a failure leaves it in the
 * queue (or, at worst, in both places: the claim turns the second copy into a duplicate).
 */
@ApplicationScoped
public class DeadLetterReplayer {

  private static final Logger LOG = Logger.getLogger(DeadLetterReplayer.class);
  private static final long CONFIRM_TIMEOUT_MS = 10_000;

  private final ConnectionFactory factory = new ConnectionFactory();

  public DeadLetterReplayer(
      @ConfigProperty(name = "rabbitmq-host") String host,
      @ConfigProperty(name = "rabbitmq-port") int port,
      @ConfigProperty(name = "rabbitmq-username") String username,
      @ConfigProperty(name = "rabbitmq-password") String password,
      @ConfigProperty(name = "rabbitmq-virtual-host", defaultValue = "/") String vhost) {
    factory.setHost(host);
    factory.setPort(port);
    factory.setUsername(username);
    factory.setPassword(password);
    factory.setVirtualHost(vhost);
  }

  /** What one replay call did. */
  public record Report(String queue, int moved, int skipped, List<Moved> messages) {}

  /** One message looked at: where it went, or why it stayed. */
  public record Moved(
      String exchange, String routingKey, String reason, String failure, boolean replayed) {}

  public Report replay(String queue, int limit) throws IOException, TimeoutException {
    List<Moved> messages = new ArrayList<>();
    int moved = 0;
    try (Connection connection = factory.newConnection("dead-letter-replay");
        Channel channel = connection.createChannel()) {
      channel.confirmSelect();
      for (int i = 0; i < limit; i++) {
        GetResponse dead = channel.basicGet(queue, false);
        if (dead == null) {
          break;
        }
        Map<String, Object> headers = headers(dead.getProps());
        String exchange = text(headers.get(DeadLetters.HEADER_ORIGINAL_EXCHANGE));
        String routingKey = text(headers.get(DeadLetters.HEADER_ORIGINAL_ROUTING_KEY));
        String reason = text(headers.get(DeadLetters.HEADER_REASON));
        String failure = text(headers.get(DeadLetters.HEADER_FAILURE));
        if (exchange == null || routingKey == null) {
          // Left unacked: it goes back to the queue when the channel closes.
          messages.add(
              new Moved(exchange, routingKey, "no original route in headers", failure, false));
          continue;
        }
        channel.basicPublish(
            exchange, routingKey, republished(dead.getProps(), headers), dead.getBody());
        channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
        channel.basicAck(dead.getEnvelope().getDeliveryTag(), false);
        messages.add(new Moved(exchange, routingKey, reason, failure, true));
        moved++;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the broker's confirm", e);
    }
    LOG.infof(
        "replayed %d message(s) from %s, %d left in place", moved, queue, messages.size() - moved);
    return new Report(queue, moved, messages.size() - moved, messages);
  }

  private static Map<String, Object> headers(AMQP.BasicProperties props) {
    return props.getHeaders() == null ? Map.of() : props.getHeaders();
  }

  /** The original properties, without the dead-letter bookkeeping headers. */
  private static AMQP.BasicProperties republished(
      AMQP.BasicProperties props, Map<String, Object> headers) {
    Map<String, Object> kept = new HashMap<>(headers);
    kept.keySet()
        .removeIf(
            h -> h.startsWith("x-onceonly-") || h.startsWith("x-original-") || h.equals("x-death"));
    kept.put("x-onceonly-replayed", true);
    return props.builder().headers(kept).build();
  }

  private static String text(Object value) {
    return value == null ? null : value.toString();
  }
}
