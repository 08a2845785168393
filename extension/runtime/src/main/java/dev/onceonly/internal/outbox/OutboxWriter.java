package dev.onceonly.internal.outbox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.api.Delivery;
import dev.onceonly.api.Outbox;
import dev.onceonly.api.OutboxMessage;
import dev.onceonly.internal.db.Jdbc;
import dev.onceonly.model.IdempotencyKeys;
import dev.onceonly.runtime.TraceContexts;
import io.opentelemetry.context.Context;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Writes outbox rows in the caller's transaction; the only SQL the platform runs on {@code
 * outbox.outbox} and {@code outbox.outbox_keys}. The idempotency key is taken in {@code
 * outbox_keys} before the row is written: the key stays taken long after the relay removed the
 * delivered row ({@code relay.retention.key-window}), so even a message replayed after its claim
 * expired cannot queue a second call. The row names its destination in {@code kind} (the column's
 * name from before destinations existed) and carries the trace of whatever wrote it ({@code
 * trace_parent}), for the relay to continue; {@code available_at} is its "not before".
 */
@Singleton
public class OutboxWriter implements Outbox {

  static final String SQL_INSERT =
      """
      WITH taken AS (
          INSERT INTO outbox.outbox_keys (idempotency_key) VALUES (?)
          ON CONFLICT DO NOTHING
          RETURNING idempotency_key)
      INSERT INTO outbox.outbox
             (kind, payload, idempotency_key, ordering_key, source_consumer, source_message_key,
              trace_parent, available_at)
      SELECT ?, ?::jsonb, idempotency_key, ?, ?, ?, ?, coalesce(?, now()) FROM taken
      ON CONFLICT (idempotency_key) DO NOTHING
      """;

  private final Jdbc jdbc;
  private final ObjectMapper json;

  public OutboxWriter(Jdbc jdbc, ObjectMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  @Override
  public boolean enqueue(String destination, Delivery cause, Object payload, String orderingKey) {
    return enqueue(
        OutboxMessage.to(destination)
            .causedBy(cause)
            .payload(payload)
            .orderingKey(orderingKey)
            .build());
  }

  @Override
  public boolean enqueue(OutboxMessage message) {
    if (!QuarkusTransaction.isActive()) {
      throw new IllegalStateException(
          "Outbox.enqueue to "
              + message.destination()
              + " outside a transaction: the row must commit with the change that caused it"
              + " (call it from a handler or a @Transactional method)");
    }
    String key =
        message.idempotencyKey() != null
            ? checkedKey(message.idempotencyKey())
            : IdempotencyKeys.derive(message.destination(), message.source(), message.key());
    try {
      return jdbc.update(
              SQL_INSERT,
              key,
              message.destination(),
              toJson(message),
              message.orderingKey(),
              message.source(),
              message.key(),
              traceparent(),
              message.notBefore() == null ? null : Timestamp.from(message.notBefore()))
          == 1;
    } catch (SQLException e) {
      throw new OutboxWriteException(message.destination(), e);
    }
  }

  private static String checkedKey(String key) {
    if (key.isBlank() || key.length() > IdempotencyKeys.MAX_LENGTH) {
      throw new IllegalArgumentException(
          "an idempotency key is 1 to " + IdempotencyKeys.MAX_LENGTH + " characters, was " + key);
    }
    return key;
  }

  /**
   * The W3C {@code traceparent} of what is running (a message's claim span, the producer's own when
   * tracing is off, or a request's span), for the relay to continue; null outside any trace.
   */
  static String traceparent() {
    return TraceContexts.traceparent(Context.current());
  }

  private String toJson(OutboxMessage message) {
    try {
      return json.writeValueAsString(message.payload());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "the payload of an outbox message to " + message.destination() + " is not serialisable",
          e);
    }
  }

  /** The database refused an outbox row: the caller's transaction fails with it. */
  public static final class OutboxWriteException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutboxWriteException(String destination, SQLException cause) {
      super("outbox row to " + destination + " not written: " + cause.getMessage(), cause);
    }
  }
}
