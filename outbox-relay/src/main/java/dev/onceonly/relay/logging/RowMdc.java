package dev.onceonly.relay.logging;

import org.jboss.logging.MDC;

/**
 * Puts an outbox row's id and idempotency key into the logging MDC for the lines logged inside a
 * try-with-resources block, so that JSON log lines carry them as fields ({@code outboxId}, {@code
 * idempotencyKey}, and {@code traceId} and {@code spanId} of the attempt's trace when it has one);
 * the text format shows them in the message.
 */
public final class RowMdc implements AutoCloseable {

  public static final String ID = "outboxId";
  public static final String KEY = "idempotencyKey";
  public static final String TRACE_ID = "traceId";
  public static final String SPAN_ID = "spanId";

  private RowMdc() {}

  public static RowMdc of(long id, String idempotencyKey) {
    MDC.put(ID, Long.toString(id));
    if (idempotencyKey != null) {
      MDC.put(KEY, idempotencyKey);
    }
    return new RowMdc();
  }

  /** Also the trace and span of a W3C {@code traceparent} ({@code 00-trace-span-flags}). */
  public static RowMdc of(long id, String idempotencyKey, String traceParent) {
    RowMdc mdc = of(id, idempotencyKey);
    String[] parts = traceParent == null ? new String[0] : traceParent.split("-");
    if (parts.length == 4) {
      MDC.put(TRACE_ID, parts[1]);
      MDC.put(SPAN_ID, parts[2]);
    }
    return mdc;
  }

  @Override
  public void close() {
    MDC.remove(ID);
    MDC.remove(KEY);
    MDC.remove(TRACE_ID);
    MDC.remove(SPAN_ID);
  }
}
