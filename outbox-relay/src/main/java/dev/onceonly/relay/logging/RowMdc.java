package dev.onceonly.relay.logging;

import org.jboss.logging.MDC;

/**
 * Puts an outbox row's id and idempotency key into the logging MDC for the lines logged inside a
 * try-with-resources block, so that JSON log lines carry them as fields ({@code outboxId}, {@code
 * idempotencyKey}); the text format shows them in the message.
 */
public final class RowMdc implements AutoCloseable {

  public static final String ID = "outboxId";
  public static final String KEY = "idempotencyKey";

  private RowMdc() {}

  public static RowMdc of(long id, String idempotencyKey) {
    MDC.put(ID, Long.toString(id));
    if (idempotencyKey != null) {
      MDC.put(KEY, idempotencyKey);
    }
    return new RowMdc();
  }

  @Override
  public void close() {
    MDC.remove(ID);
    MDC.remove(KEY);
  }
}
