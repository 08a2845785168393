package dev.onceonly.internal.operations;

import dev.onceonly.internal.messaging.DeadLetters;
import java.util.List;
import java.util.Map;

/** Where a dead-lettered message first came from, read from its headers. */
final class DeadLetterRoutes {

  private DeadLetterRoutes() {}

  /**
   * The routing key the message was first published with: the header this service writes when it
   * dead-letters, else the first routing key of the broker's own {@code x-death} record (a message
   * the broker dead-lettered after a reject); null when neither is there.
   */
  static String originalRoutingKey(Map<String, Object> headers) {
    Object written = headers.get(DeadLetters.HEADER_ORIGINAL_ROUTING_KEY);
    if (written != null) {
      return written.toString();
    }
    if (headers.get("x-death") instanceof List<?> deaths
        && !deaths.isEmpty()
        && deaths.get(0) instanceof Map<?, ?> death
        && death.get("routing-keys") instanceof List<?> keys
        && !keys.isEmpty()) {
      return keys.get(0).toString();
    }
    return null;
  }
}
