package dev.onceonly.consumer.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.consumer.db.Jdbc;
import dev.onceonly.model.IdempotencyKeys;
import dev.onceonly.model.OutboxKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes outbox rows in the caller's transaction; the only SQL this service runs on {@code
 * outbox.outbox} and {@code outbox.outbox_keys}. The idempotency key is derived from consumer and
 * message key and taken in {@code outbox_keys} before the row is written: the key stays taken long
 * after the relay removed the delivered row ({@code relay.retention.key-window}), so even a message
 * replayed after its claim expired cannot queue a second provider call. Each row carries the trace
 * of the message that wrote it ({@code trace_parent}), for the relay to continue.
 */
@ApplicationScoped
public class OutboxWriter {

  static final String SQL_INSERT =
      """
      WITH taken AS (
          INSERT INTO outbox.outbox_keys (idempotency_key) VALUES (?)
          ON CONFLICT DO NOTHING
          RETURNING idempotency_key)
      INSERT INTO outbox.outbox
             (kind, payload, idempotency_key, ordering_key, source_consumer, source_message_key,
              trace_parent)
      SELECT ?, ?::jsonb, idempotency_key, ?, ?, ?, ? FROM taken
      ON CONFLICT (idempotency_key) DO NOTHING
      """;

  private final Jdbc jdbc;
  private final ObjectMapper json;

  public OutboxWriter(Jdbc jdbc, ObjectMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /** Queues one provider call; returns false if a row with the same key already exists. */
  public boolean write(
      OutboxKind kind,
      String consumer,
      String messageKey,
      Map<String, Object> payload,
      String orderingKey)
      throws SQLException {
    return jdbc.update(
            SQL_INSERT,
            IdempotencyKeys.derive(kind, consumer, messageKey),
            kind.value(),
            toJson(payload),
            orderingKey,
            consumer,
            messageKey,
            traceparent())
        == 1;
  }

  /**
   * The W3C {@code traceparent} of the message being handled (its claim span, or the producer's own
   * when tracing is off), for the relay to continue; null outside any trace.
   */
  static String traceparent() {
    Map<String, String> carrier = new HashMap<>(2);
    W3CTraceContextPropagator.getInstance().inject(Context.current(), carrier, Map::put);
    return carrier.get("traceparent");
  }

  private String toJson(Map<String, Object> payload) {
    try {
      return json.writeValueAsString(payload);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("outbox payload is not serialisable: " + payload, e);
    }
  }
}
