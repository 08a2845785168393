package dev.onceonly.internal.messaging;

import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.intake.Arrival;
import dev.onceonly.internal.processing.Verdict;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.inject.Singleton;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The span of one message, from the broker to its commit: it continues the producer's W3C trace
 * from the AMQP headers ({@code traceparent}, {@code tracestate}) or starts one, and says which key
 * it was and what was decided. With tracing off (the default) no span is recorded, but the
 * producer's trace context still travels on: the message's outbox rows carry it to the relay.
 */
@Singleton
public class MessageTracing {

  public static final AttributeKey<String> CONSUMER = AttributeKey.stringKey("onceonly.consumer");
  public static final AttributeKey<String> MESSAGE_KEY =
      AttributeKey.stringKey("onceonly.message_key");
  public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("onceonly.outcome");

  /** Reads trace headers from AMQP headers, whatever type the client decoded them to. */
  private static final TextMapGetter<Map<String, Object>> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, Object> carrier) {
          return carrier.keySet();
        }

        @Override
        public String get(Map<String, Object> carrier, String key) {
          Object value = carrier == null ? null : carrier.get(key);
          return value == null ? null : value.toString();
        }
      };

  private final Tracer tracer;

  /**
   * {@code disabled}: {@code quarkus.otel.sdk.disabled}. Quarkus then still hands out an SDK that
   * makes spans with ids of their own (nowhere exported); the no-op tracer instead hands back the
   * producer's context, which the outbox rows then carry unchanged, and costs nothing.
   */
  public MessageTracing(
      OpenTelemetry openTelemetry,
      @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false")
          boolean disabled) {
    this.tracer = (disabled ? OpenTelemetry.noop() : openTelemetry).getTracer("onceonly.consumer");
  }

  /** Starts the span of a message that just arrived for {@code consumer}. */
  public Span start(ConsumerSpec consumer, Arrival arrival) {
    Context producer =
        W3CTraceContextPropagator.getInstance().extract(Context.root(), arrival.headers(), HEADERS);
    return tracer
        .spanBuilder("claim " + consumer.name())
        .setParent(producer)
        .setSpanKind(SpanKind.CONSUMER)
        .setAttribute("messaging.system", arrival.system())
        .setAttribute("messaging.destination.name", consumer.queue())
        .setAttribute(CONSUMER, consumer.name())
        .startSpan();
  }

  /**
   * Makes the message's span current for the lines logged in a try-with-resources block, with its
   * {@code traceId} and {@code spanId} in the logging MDC ({@link TraceLogging}).
   */
  public static TraceLogging.LogScope logging(Span span) {
    return TraceLogging.open(Context.root().with(span));
  }

  /** Ends the span of a message decided (and committed) with {@code outcome}. */
  public static void decided(Span span, Verdict outcome) {
    span.setAttribute(OUTCOME, outcome.tag());
    span.end();
  }

  /** Ends the span of a message that was not decided: dead-lettered or requeued. */
  public static void failed(Span span, String outcome, Throwable cause) {
    span.setAttribute(OUTCOME, outcome);
    if (cause != null) {
      span.recordException(cause);
      span.setStatus(StatusCode.ERROR, String.valueOf(cause.getMessage()));
    }
    span.end();
  }
}
