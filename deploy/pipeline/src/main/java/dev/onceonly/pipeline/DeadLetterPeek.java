package dev.onceonly.pipeline;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a dead-letter queue without consuming it: every message is fetched unacknowledged and given
 * back (nack with requeue), so the operator still finds them all there. On Kafka {@link KafkaView}
 * reads a dead-letter topic into the same shape.
 */
public final class DeadLetterPeek {

  static final String REASON = "x-onceonly-reason";
  static final String FAILURE = "x-onceonly-failure";

  /** One dead letter: its reason and failure class headers (null if missing), body head. */
  public record Letter(String reason, String failure, String bodyHead) {}

  /** What one queue held: its depth and the letters read. */
  public record Queue(String name, long depth, List<Letter> letters) {}

  private DeadLetterPeek() {}

  public static Queue peek(Connection amqp, String queue, int max) throws Exception {
    try (Channel channel = amqp.createChannel()) {
      long depth = channel.queueDeclarePassive(queue).getMessageCount();
      List<Letter> letters = new ArrayList<>();
      long lastTag = -1;
      for (int i = 0; i < max; i++) {
        GetResponse got = channel.basicGet(queue, false);
        if (got == null) {
          break;
        }
        lastTag = got.getEnvelope().getDeliveryTag();
        Map<String, Object> headers = got.getProps().getHeaders();
        letters.add(
            letter(
                header(headers, REASON),
                header(headers, FAILURE),
                new String(got.getBody(), StandardCharsets.UTF_8)));
      }
      if (lastTag >= 0) {
        channel.basicNack(lastTag, true, true);
      }
      return new Queue(queue, depth, letters);
    }
  }

  /** A letter with the first 40 characters of its body. */
  static Letter letter(String reason, String failure, String body) {
    return new Letter(reason, failure, body.length() > 40 ? body.substring(0, 40) + "…" : body);
  }

  private static String header(Map<String, Object> headers, String name) {
    Object value = headers == null ? null : headers.get(name);
    return value == null ? null : value.toString();
  }
}
