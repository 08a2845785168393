package dev.onceonly.internal.messaging;

import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.intake.Arrival;
import dev.onceonly.internal.processing.Verdict;
import dev.onceonly.runtime.TraceContexts;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import jakarta.inject.Singleton;
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
  static final AttributeKey<String> EXCEPTION_TYPE = AttributeKey.stringKey("exception.type");
  static final AttributeKey<String> EXCEPTION_MESSAGE = AttributeKey.stringKey("exception.message");

  private final Tracer tracer;

  /**
   * {@code disabled}: {@code quarkus.otel.sdk.disabled}; then the producer's context is handed back
   * as the span's ({@link TraceContexts#tracer}), which the outbox rows carry unchanged.
   */
  public MessageTracing(
      OpenTelemetry openTelemetry,
      @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false")
          boolean disabled) {
    this.tracer = TraceContexts.tracer(openTelemetry, disabled, "onceonly.consumer");
  }

  /** Starts the span of a message that just arrived for {@code consumer}. */
  public Span start(ConsumerSpec consumer, Arrival arrival) {
    return tracer
        .spanBuilder("claim " + consumer.name())
        .setParent(TraceContexts.fromHeaders(arrival.headers()))
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

  /**
   * Ends the span of a message that was not decided: dead-lettered or requeued. A fault (a failed
   * transaction, a decoder that threw) is recorded with its stack trace. An invalid message is bad
   * data, not a fault: its {@code exception} event says the type and the reason only, as its dead
   * letter does. The stack trace of its cause (the JSON parser's, some 4 KB of text) was most of
   * what tracing exported, allocated and held in memory while messages were invalid (measured in
   * deploy/bench/README.md, "Tracing on and off").
   */
  public static void failed(Span span, String outcome, Throwable cause) {
    span.setAttribute(OUTCOME, outcome);
    if (cause != null) {
      String reason = String.valueOf(cause.getMessage());
      if (cause instanceof InvalidMessageException) {
        span.addEvent(
            "exception",
            Attributes.of(EXCEPTION_TYPE, cause.getClass().getName(), EXCEPTION_MESSAGE, reason));
      } else {
        span.recordException(cause);
      }
      span.setStatus(StatusCode.ERROR, reason);
    }
    span.end();
  }
}
