package dev.onceonly.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceContextsTest {

  private static final String PARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

  /** An AMQP client hands string headers over as objects of its own, not as Strings. */
  private record LongString(String value) {
    @Override
    public String toString() {
      return value;
    }
  }

  @Test
  void aStoredTraceparentTravelsOnUnchanged() {
    assertThat(TraceContexts.traceparent(TraceContexts.fromTraceparent(PARENT))).isEqualTo(PARENT);
  }

  @Test
  void headersOfAnyTypeAreRead() {
    Context context = TraceContexts.fromHeaders(Map.of("traceparent", new LongString(PARENT)));

    assertThat(Span.fromContext(context).getSpanContext().getTraceId())
        .isEqualTo("0af7651916cd43dd8448eb211c80319c");
  }

  @Test
  void withoutAContextThereIsNoTraceparent() {
    assertThat(TraceContexts.traceparent(TraceContexts.fromTraceparent(null))).isNull();
    assertThat(TraceContexts.traceparent(TraceContexts.fromHeaders(Map.of()))).isNull();
    assertThat(TraceContexts.fromTraceparent("garbage")).isEqualTo(Context.root());
  }

  @Test
  void aDisabledTracerHandsTheParentsContextOnAsItsSpan() {
    Span span =
        TraceContexts.tracer(OpenTelemetry.noop(), true, "test")
            .spanBuilder("claim")
            .setParent(TraceContexts.fromTraceparent(PARENT))
            .startSpan();

    assertThat(TraceContexts.traceparent(span)).isEqualTo(PARENT);
  }
}
