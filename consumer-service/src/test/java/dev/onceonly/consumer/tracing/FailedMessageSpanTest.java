package dev.onceonly.consumer.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.internal.messaging.MessageTracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a message's span records why it was not decided: a fault with its stack trace, an invalid
 * message with its type and reason only, whatever its cause carries.
 */
class FailedMessageSpanTest {

  private static final AttributeKey<String> TYPE = AttributeKey.stringKey("exception.type");
  private static final AttributeKey<String> MESSAGE = AttributeKey.stringKey("exception.message");
  private static final AttributeKey<String> STACKTRACE =
      AttributeKey.stringKey("exception.stacktrace");

  private final InMemorySpanExporter exported = InMemorySpanExporter.create();
  private final SdkTracerProvider tracing =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported)).build();

  @AfterEach
  void close() {
    tracing.close();
  }

  @Test
  void anInvalidMessageIsRecordedWithItsReasonAndNoStackTrace() {
    InvalidMessageException invalid =
        new InvalidMessageException(
            "body is not valid JSON (starts with 'not JSON')", new IOException("parser said no"));

    SpanData span = fail("dead_lettered", invalid);

    assertThat(span.getAttributes().get(MessageTracing.OUTCOME)).isEqualTo("dead_lettered");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).isEqualTo(invalid.getMessage());
    EventData event = onlyEvent(span);
    assertThat(event.getAttributes().get(TYPE)).isEqualTo(InvalidMessageException.class.getName());
    assertThat(event.getAttributes().get(MESSAGE)).isEqualTo(invalid.getMessage());
    assertThat(event.getAttributes().get(STACKTRACE)).isNull();
  }

  @Test
  void aFaultIsRecordedWithItsStackTrace() {
    IllegalStateException fault = new IllegalStateException("the committer lost its connection");

    SpanData span = fail("requeued", fault);

    assertThat(span.getAttributes().get(MessageTracing.OUTCOME)).isEqualTo("requeued");
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    EventData event = onlyEvent(span);
    assertThat(event.getAttributes().get(TYPE)).isEqualTo(IllegalStateException.class.getName());
    assertThat(event.getAttributes().get(MESSAGE)).isEqualTo(fault.getMessage());
    assertThat(event.getAttributes().get(STACKTRACE)).contains("aFaultIsRecordedWithItsStackTrace");
  }

  private SpanData fail(String outcome, Throwable cause) {
    Span span = tracing.get("test").spanBuilder("claim test").startSpan();
    MessageTracing.failed(span, outcome, cause);
    assertThat(exported.getFinishedSpanItems()).hasSize(1);
    return exported.getFinishedSpanItems().get(0);
  }

  private static EventData onlyEvent(SpanData span) {
    assertThat(span.getEvents()).hasSize(1);
    EventData event = span.getEvents().get(0);
    assertThat(event.getName()).isEqualTo("exception");
    return event;
  }
}
