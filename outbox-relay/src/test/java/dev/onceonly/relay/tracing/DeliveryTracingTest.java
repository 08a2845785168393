package dev.onceonly.relay.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.is;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With tracing on, every delivery attempt is a span of the message's trace (the row's {@code
 * trace_parent}), the provider gets that span as {@code traceparent}, and the attempt records it:
 * the consumer's span, the outbox row and the provider call share one trace id.
 */
@QuarkusTest
@TestProfile(TracingProfile.class)
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class DeliveryTracingTest {

  private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
  private static final String MESSAGE_SPAN = "b7ad6b7169203331";

  @Inject InMemorySpanExporter spans;

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void eachAttemptIsASpanOfTheMessagesTraceAndTheProviderSeesIt() {
    String key = OutboxRows.uniquePrefix("traced") + "r";
    stub.script(key, Step.status(503));
    long id = insertTraced(key, "00-" + TRACE + "-" + MESSAGE_SPAN + "-01");

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(15))
        .until(() -> OutboxRows.status(id).equals("delivered"));

    List<SpanData> attempts =
        await()
            .atMost(Duration.ofSeconds(10))
            .until(
                () ->
                    spans.getFinishedSpanItems().stream()
                        .filter(s -> s.getName().equals("deliver send_receipt"))
                        .filter(s -> key.equals(attribute(s, "onceonly.idempotency_key")))
                        .toList(),
                found -> found.size() == 2);
    assertThat(attempts)
        .allSatisfy(
            s -> {
              assertThat(s.getTraceId()).isEqualTo(TRACE);
              assertThat(s.getParentSpanId()).isEqualTo(MESSAGE_SPAN);
            });
    assertThat(attempts)
        .extracting(s -> attribute(s, "onceonly.outcome"))
        .containsExactly("retry", "delivered");
    List<String> sent =
        attempts.stream().map(s -> "00-" + TRACE + "-" + s.getSpanId() + "-01").toList();
    assertThat(stub.traceParents(key)).as("what the provider received").isEqualTo(sent);
    assertThat(
            OutboxRows.strings(
                "SELECT trace_parent FROM outbox.outbox_attempts WHERE outbox_id = ? ORDER BY attempt",
                id))
        .as("what each attempt recorded")
        .isEqualTo(sent);
    Api.viewer().get("/outbox/" + id).then().statusCode(200).body("row.traceId", is(TRACE));
  }

  /** A receipt row written with the trace context of the message that wrote it. */
  static long insertTraced(String key, String traceParent) {
    return OutboxRows.longs(
            """
            INSERT INTO outbox.outbox (kind, payload, idempotency_key, trace_parent)
            VALUES ('send_receipt', ?::jsonb, ?, ?) RETURNING id
            """,
            "{\"key\": \"" + key + "\"}",
            key,
            traceParent)
        .get(0);
  }

  private static String attribute(SpanData span, String key) {
    return span.getAttributes().asMap().entrySet().stream()
        .filter(e -> e.getKey().getKey().equals(key))
        .map(e -> String.valueOf(e.getValue()))
        .findFirst()
        .orElse(null);
  }
}
