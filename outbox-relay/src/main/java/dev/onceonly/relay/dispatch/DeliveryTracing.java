package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.completion.Completion;
import dev.onceonly.relay.completion.Outcome;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.runtime.TraceContexts;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Each delivery attempt is a span of the trace of the message that wrote the row ({@code
 * outbox.trace_parent}), and the provider gets that span's context as {@code traceparent}. With
 * tracing off (the default) nothing is recorded, and the row's own trace context is sent as it is,
 * so the provider's trace still joins the message's.
 */
@ApplicationScoped
public class DeliveryTracing {

  static final AttributeKey<Long> OUTBOX_ID = AttributeKey.longKey("onceonly.outbox.id");
  static final AttributeKey<String> KIND = AttributeKey.stringKey("onceonly.outbox.kind");
  static final AttributeKey<String> KEY = AttributeKey.stringKey("onceonly.idempotency_key");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("onceonly.attempt");
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("onceonly.outcome");
  static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

  private final Tracer tracer;

  /**
   * {@code disabled}: {@code quarkus.otel.sdk.disabled}; then the row's own context is handed back
   * as the span's ({@link TraceContexts#tracer}), so the provider gets the message's trace
   * unchanged.
   */
  public DeliveryTracing(
      OpenTelemetry openTelemetry,
      @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false")
          boolean disabled) {
    this.tracer = TraceContexts.tracer(openTelemetry, disabled, "onceonly.relay");
  }

  /** Starts the span of one attempt at {@code row}, a child of the row's stored trace context. */
  public Span start(LeasedRow row, String relayId) {
    return tracer
        .spanBuilder("deliver " + row.kind())
        .setParent(TraceContexts.fromTraceparent(row.traceParent()))
        .setSpanKind(SpanKind.CLIENT)
        .setAttribute(OUTBOX_ID, row.id())
        .setAttribute(KIND, row.kind())
        .setAttribute(KEY, row.idempotencyKey())
        .setAttribute(ATTEMPT, (long) row.attempt())
        .setAttribute("onceonly.relay", relayId)
        .startSpan();
  }

  /** The {@code traceparent} header for a call made in {@code span}; null outside any trace. */
  public static String traceParent(Span span) {
    return TraceContexts.traceparent(span);
  }

  /** Ends the attempt's span with what became of the row. */
  public static void finish(Span span, Completion completion) {
    span.setAttribute(OUTCOME, completion.outcome().value());
    if (completion.httpStatus() != null) {
      span.setAttribute(STATUS, (long) completion.httpStatus());
    }
    if (completion.outcome() != Outcome.DELIVERED) {
      span.setStatus(StatusCode.ERROR, String.valueOf(completion.attemptError()));
    }
    span.end();
  }
}
