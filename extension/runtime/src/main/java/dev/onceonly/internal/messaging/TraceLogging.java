package dev.onceonly.internal.messaging;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.jboss.logging.MDC;

/**
 * Lines logged about one message carry its trace (ARCHITECTURE.md §10): within {@link #open} the
 * message's trace context is current and its {@code traceId} and {@code spanId} are in the logging
 * MDC, so JSON log lines carry them as fields. Quarkus fills the MDC from the current span on its
 * own event loops only, and the listener starts a message's span itself; it, the committer threads
 * and the dead-letter publisher's threads put the ids in the MDC themselves. Scopes nest: one
 * closed puts back what the MDC held before it opened.
 */
public final class TraceLogging {

  /** The logging MDC fields of the current trace, named as Quarkus names them. */
  public static final String TRACE_ID = "traceId";

  public static final String SPAN_ID = "spanId";

  private TraceLogging() {}

  /** Makes {@code trace} current and puts its ids in the MDC until the scope closes. */
  public static LogScope open(Context trace) {
    Scope scope = trace.makeCurrent();
    SpanContext context = Span.fromContext(trace).getSpanContext();
    if (!context.isValid()) {
      return scope::close;
    }
    Object traceBefore = MDC.get(TRACE_ID);
    Object spanBefore = MDC.get(SPAN_ID);
    MDC.put(TRACE_ID, context.getTraceId());
    MDC.put(SPAN_ID, context.getSpanId());
    return () -> {
      restore(TRACE_ID, traceBefore);
      restore(SPAN_ID, spanBefore);
      scope.close();
    };
  }

  private static void restore(String key, Object before) {
    if (before == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, before);
    }
  }

  /** A scope that closes without a checked exception. */
  @FunctionalInterface
  public interface LogScope extends AutoCloseable {
    @Override
    void close();
  }
}
