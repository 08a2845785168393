package dev.onceonly.runtime;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The W3C trace context as OnceOnly carries it: read from a message's headers, stored with an
 * outbox row as one {@code traceparent} string, sent on with each delivery. The extension and the
 * relay share these so that a trace runs unbroken from the producer through the claim and the
 * outbox to the provider.
 */
public final class TraceContexts {

  /** The header (and outbox column's content) that carries the context. */
  public static final String TRACEPARENT = "traceparent";

  /** Reads trace headers from message headers, whatever type the client decoded them to. */
  private static final TextMapGetter<Map<String, ?>> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, ?> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, ?> carrier, String key) {
          Object value = carrier == null ? null : carrier.get(key);
          return value == null ? null : value.toString();
        }
      };

  /** Reads a single stored {@code traceparent} as if it were a header. */
  private static final TextMapGetter<String> STORED =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String traceParent) {
          return List.of(TRACEPARENT);
        }

        @Override
        public String get(String traceParent, String key) {
          return TRACEPARENT.equals(key) ? traceParent : null;
        }
      };

  private TraceContexts() {}

  /**
   * The tracer named {@code name}; the no-op one when {@code disabled} ({@code
   * quarkus.otel.sdk.disabled}). Quarkus then still hands out an SDK that makes spans with ids of
   * their own (nowhere exported); the no-op tracer instead hands back the parent's context, so the
   * producer's trace travels on unchanged, and costs nothing.
   */
  public static Tracer tracer(OpenTelemetry openTelemetry, boolean disabled, String name) {
    return (disabled ? OpenTelemetry.noop() : openTelemetry).getTracer(name);
  }

  /** The context the producer sent in {@code headers} ({@code traceparent}, {@code tracestate}). */
  public static Context fromHeaders(Map<String, ?> headers) {
    return W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, HEADERS);
  }

  /** The context of a stored {@code traceparent}; the root context when there is none. */
  public static Context fromTraceparent(String traceParent) {
    return traceParent == null
        ? Context.root()
        : W3CTraceContextPropagator.getInstance().extract(Context.root(), traceParent, STORED);
  }

  /** The {@code traceparent} of {@code context}; null outside any trace. */
  public static String traceparent(Context context) {
    Map<String, String> carrier = new HashMap<>(2);
    W3CTraceContextPropagator.getInstance().inject(context, carrier, Map::put);
    return carrier.get(TRACEPARENT);
  }

  /** The {@code traceparent} of a call made in {@code span}; null outside any trace. */
  public static String traceparent(Span span) {
    return traceparent(Context.root().with(span));
  }
}
