package dev.onceonly.consumer.tracing;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.redemption;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.AMQP;
import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.consumer.Broker;
import dev.onceonly.consumer.Db;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.EventType;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.RewardRedeemed;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/**
 * With tracing on, one message's span continues the producer's trace from its AMQP headers, says
 * its key and outcome, and its outbox row carries that span's context on to the relay; a
 * duplicate's span says {@code duplicate}; a redemption's payout row carries its trace as the
 * receipt row does; log lines logged for a message, by the listener or inside its claim transaction
 * on a committer thread, carry its trace and span; an invalid message's span says why it was
 * dead-lettered, without a stack trace.
 */
@QuarkusTest
@TestProfile(TracingProfile.class)
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class MessageTracingTest {

  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @Inject InMemorySpanExporter spans;
  @Inject Db db;

  @Test
  void theMessageSpanContinuesTheProducersTraceIntoTheOutboxRow() throws Exception {
    String traceId = "4bf92f3577b34da6a3ce929d0e0e" + unique("").substring(1, 5).replace("-", "0");
    String producerSpan = "00f067aa0ba902b7";
    OrderCompleted order = order(unique("o"), unique("c"), 2_000);

    publish(order, "00-" + traceId + "-" + producerSpan + "-01");

    SpanData receipts = awaitSpan("claim receipts", order.messageKey(), "applied");
    assertThat(receipts.getTraceId()).isEqualTo(traceId);
    assertThat(receipts.getParentSpanId()).isEqualTo(producerSpan);
    assertThat(receipts.getAttributes().asMap().toString()).contains(order.messageKey());
    assertThat(outboxTraceparent(order))
        .as("the outbox row carries the message span's context")
        .isEqualTo("00-" + traceId + "-" + receipts.getSpanId() + "-01");
    assertThat(awaitSpan("claim loyalty", order.messageKey(), "applied").getTraceId())
        .isEqualTo(traceId);

    publish(order, "00-" + traceId + "-" + producerSpan + "-01");

    assertThat(awaitSpan("claim loyalty", order.messageKey(), "duplicate").getTraceId())
        .isEqualTo(traceId);
  }

  @Test
  void aMessageWithoutTraceHeadersStartsATrace() throws Exception {
    OrderCompleted order = order(unique("o"), unique("c"), 1_000);

    publish(order, null);

    SpanData span = awaitSpan("claim receipts", order.messageKey(), "applied");
    assertThat(span.getParentSpanContext().isValid()).isFalse();
    assertThat(outboxTraceparent(order)).contains(span.getTraceId());
  }

  @Test
  void logLinesOfAMessageCarryItsTraceAndSpan() throws Exception {
    List<ExtLogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture = capturing(records);
    org.jboss.logmanager.Logger logger =
        org.jboss.logmanager.Logger.getLogger("dev.onceonly.internal.intake.Intake");
    logger.addHandler(capture);
    try {
      OrderCompleted order = order(unique("o"), unique("c"), 1_000);
      publish(order, null);
      awaitSpan("claim loyalty", order.messageKey(), "applied");
      // The same key with another payload: quarantined, and logged as a warning.
      publish(order(order.orderId(), order.customerId(), 9_900), null);

      SpanData conflict = awaitSpan("claim loyalty", order.messageKey(), "conflict");
      await()
          .atMost(PATIENCE)
          .untilAsserted(
              () ->
                  assertThat(records)
                      .anySatisfy(
                          r -> {
                            assertThat(r.getMessage()).contains("quarantined");
                            assertThat(r.getMdc("traceId")).isEqualTo(conflict.getTraceId());
                            assertThat(r.getMdc("spanId")).isEqualTo(conflict.getSpanId());
                          }));
    } finally {
      logger.removeHandler(capture);
    }
  }

  @Test
  void aRedemptionsPayoutRowCarriesItsMessagesTrace() throws Exception {
    String customer = unique("c");
    OrderCompleted order = order(unique("o"), customer, 10_000);
    publish(order, null);
    awaitSpan("claim loyalty", order.messageKey(), "applied");
    String traceId = "5af7183fb1d4cf5f" + unique("").substring(1, 9).replace("-", "0") + "00000001";
    RewardRedeemed redemption = redemption(unique("r"), customer, 30);

    publish(redemption, "00-" + traceId + "-b7ad6b7169203331-01");

    SpanData span = awaitSpan("claim loyalty", redemption.messageKey(), "applied");
    assertThat(span.getTraceId()).isEqualTo(traceId);
    assertThat(outboxTraceparent(redemption))
        .as("the payout row carries the redemption span's context")
        .isEqualTo("00-" + traceId + "-" + span.getSpanId() + "-01");
    assertThat(
            db.string(
                "SELECT kind FROM outbox.outbox WHERE source_message_key = ?",
                redemption.messageKey()))
        .isEqualTo("issue_payout");
  }

  @Test
  void logLinesOfTheClaimTransactionCarryTheMessagesTraceAndSpan() throws Exception {
    List<ExtLogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture = capturing(records);
    List<org.jboss.logmanager.Logger> loggers =
        List.of(
            org.jboss.logmanager.Logger.getLogger(
                "dev.onceonly.internal.processing.MessageDecider"),
            org.jboss.logmanager.Logger.getLogger("dev.onceonly.consumer.loyalty.LoyaltyHandler"));
    List<Level> levels = loggers.stream().map(java.util.logging.Logger::getLevel).toList();
    loggers.forEach(
        l -> {
          l.addHandler(capture);
          l.setLevel(Level.FINE); // LoyaltyHandler's natural-key line is a debug line
        });
    try {
      OrderCompleted order = order(unique("o"), unique("c"), 1_000);
      publish(order, null);
      awaitSpan("claim loyalty", order.messageKey(), "applied");
      // Its claim expires (as after the claim window); a copy then claims anew and the ledger's
      // natural key catches it, on the committer's thread, with a warning.
      db.execute(
          "DELETE FROM onceonly.processed_messages WHERE consumer = 'loyalty' AND message_key = '"
              + order.messageKey()
              + "'");
      publish(order, null);

      SpanData duplicate = awaitSpan("claim loyalty", order.messageKey(), "duplicate");
      for (String line : List.of("its claim has expired", "ledger already credits")) {
        await()
            .atMost(PATIENCE)
            .untilAsserted(
                () ->
                    assertThat(records)
                        .filteredOn(r -> r.getFormattedMessage().contains(order.messageKey()))
                        .anySatisfy(
                            r -> {
                              assertThat(r.getFormattedMessage()).contains(line);
                              assertThat(r.getMdc("traceId")).isEqualTo(duplicate.getTraceId());
                              assertThat(r.getMdc("spanId")).isEqualTo(duplicate.getSpanId());
                            }));
      }
    } finally {
      for (int i = 0; i < loggers.size(); i++) {
        loggers.get(i).removeHandler(capture);
        loggers.get(i).setLevel(levels.get(i));
      }
    }
  }

  @Test
  void anInvalidMessagesSpanSaysWhyWithoutAStackTrace() throws Exception {
    String traceId = "5cf92f3577b34da6a3ce929d0e0e" + unique("").substring(1, 5).replace("-", "0");
    byte[] body = "not JSON: a tracing test's invalid message".getBytes(StandardCharsets.UTF_8);

    publish(EventType.ORDER_COMPLETED.routingKey(), body, "00-" + traceId + "-00f067aa0ba902b7-01");

    SpanData span =
        await()
            .atMost(PATIENCE)
            .until(
                () ->
                    spans.getFinishedSpanItems().stream()
                        .filter(s -> s.getTraceId().equals(traceId))
                        .filter(s -> "dead_lettered".equals(attribute(s, "onceonly.outcome")))
                        .findFirst()
                        .orElse(null),
                s -> s != null);
    assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(span.getStatus().getDescription()).contains("not valid JSON");
    assertThat(span.getEvents()).hasSize(1);
    EventData event = span.getEvents().get(0);
    assertThat(event.getName()).isEqualTo("exception");
    assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.type")))
        .isEqualTo(InvalidMessageException.class.getName());
    assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.message")))
        .isEqualTo(span.getStatus().getDescription());
    assertThat(event.getAttributes().get(AttributeKey.stringKey("exception.stacktrace")))
        .as("bad data is not a fault: no stack trace in the span")
        .isNull();
  }

  private SpanData awaitSpan(String name, String messageKey, String outcome) {
    return await()
        .atMost(PATIENCE)
        .until(
            () ->
                spans.getFinishedSpanItems().stream()
                    .filter(s -> s.getName().equals(name))
                    .filter(s -> messageKey.equals(attribute(s, "onceonly.message_key")))
                    .filter(s -> outcome.equals(attribute(s, "onceonly.outcome")))
                    .findFirst()
                    .orElse(null),
            span -> span != null);
  }

  /** A handler that keeps every record with the MDC of the thread that logged it. */
  private static Handler capturing(List<ExtLogRecord> records) {
    return new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record instanceof ExtLogRecord ext) {
          ext.copyMdc(); // the MDC as it is on the logging thread, now
          records.add(ext);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  private static String attribute(SpanData span, String key) {
    return span.getAttributes().asMap().entrySet().stream()
        .filter(e -> e.getKey().getKey().equals(key))
        .map(e -> String.valueOf(e.getValue()))
        .findFirst()
        .orElse(null);
  }

  private String outboxTraceparent(LoyaltyEvent order) {
    await()
        .pollInSameThread()
        .atMost(PATIENCE)
        .until(
            () ->
                db.count(
                        "SELECT count(*) FROM outbox.outbox WHERE source_message_key = ?",
                        order.messageKey())
                    == 1);
    return db.string(
        "SELECT trace_parent FROM outbox.outbox WHERE source_message_key = ?", order.messageKey());
  }

  private static void publish(LoyaltyEvent order, String traceparent) throws Exception {
    publish(order.type().routingKey(), EventCodec.encode(order), traceparent);
  }

  private static void publish(String routingKey, byte[] body, String traceparent) throws Exception {
    try (Broker broker = Broker.connect()) {
      AMQP.BasicProperties props =
          new AMQP.BasicProperties.Builder()
              .contentType("application/json")
              .deliveryMode(2)
              .headers(traceparent == null ? Map.of() : Map.of("traceparent", traceparent))
              .build();
      broker.channel().basicPublish(EventType.EXCHANGE, routingKey, props, body);
      broker.confirmAll();
    }
  }
}
