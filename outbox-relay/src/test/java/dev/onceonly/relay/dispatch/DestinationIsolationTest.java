package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Call;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * One destination's trouble stays its own (the %test destinations {@code steady}, {@code stuck} and
 * {@code outage}, application.properties). {@code steady} delivers at most 40 rows a second (its
 * rate limit), a pace this machine keeps however busy it is, so its rate alone and beside a hanging
 * neighbour are measured in the same run as rows delivered in equal windows.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class DestinationIsolationTest {

  /** The length of a measuring window. */
  private static final Duration WINDOW = Duration.ofSeconds(4);

  /** Left out at the start of a window: the rate limit's first second's worth goes at once. */
  private static final Duration SETTLE = Duration.ofMillis(1_500);

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void aHealthyDestinationKeepsItsRateWhileAnotherHangsOnEveryCall() {
    String prefix = OutboxRows.uniquePrefix("isolation");
    // Every call to "stuck" is held past its 1 s timeout; its 16 calls at once never end well.
    stub.alwaysAt("/v1/stuck", Step.normal().held(Duration.ofMillis(1_500)));
    try {
      long alone = deliveredInAWindow(prefix + "alone-");

      OutboxRows.insert(rows("stuck", prefix + "stuck-", 600));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> stub.calls(k -> k.startsWith(prefix + "stuck-")).size() >= 16);
      long beside = deliveredInAWindow(prefix + "beside-");

      assertThat(beside)
          .as(
              "steady rows delivered in %s beside a hanging destination, against %d alone",
              WINDOW, alone)
          .isGreaterThanOrEqualTo(Math.round(Math.ceil(0.8 * alone)));
      assertThat(alone).as("the rate limit's pace, 40 a second").isBetween(100L, 200L);
      assertThat(stub.calls(k -> k.startsWith(prefix + "stuck-")))
          .as("the stuck destination was being called all along")
          .hasSizeGreaterThanOrEqualTo(32);
      assertThat(
              OutboxRows.longs(
                      "SELECT count(*) FROM outbox.outbox WHERE kind = 'stuck'"
                          + " AND idempotency_key LIKE ? AND status = 'delivered'",
                      prefix + "%")
                  .get(0))
          .as("and never answered")
          .isZero();
    } finally {
      stub.alwaysAt("/v1/stuck", null);
      OutboxRows.longs(
          "UPDATE outbox.outbox SET status = 'cancelled', cancelled_at = now()"
              + " WHERE idempotency_key LIKE ? AND status = 'pending' RETURNING id",
          prefix + "%");
    }
  }

  @Test
  void aProviderDownForLongerThanTheWholeRetryBudgetLeavesNoDeadRow() {
    String prefix = OutboxRows.uniquePrefix("outage");
    // 3 attempts 100 ms and 200 ms apart: without its breaker a row is dead within 0.3 s.
    stub.alwaysAt("/v1/outage", Step.status(503));
    List<Long> ids;
    Instant downUntil;
    try {
      ids = OutboxRows.insert(rows("outage", prefix, 30));
      // Down for ten times the whole retry budget, or until a row gives up.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  spanOfCalls(prefix).compareTo(Duration.ofSeconds(3)) >= 0
                      || count(prefix, "status = 'dead'") > 0);
      downUntil = Instant.now();
      assertThat(count(prefix, "status = 'dead'")).as("no row dead while it is down").isZero();
    } finally {
      stub.alwaysAt("/v1/outage", null);
    }

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count(prefix, "status = 'delivered'") == ids.size());

    List<Call> calls = stub.calls(k -> k.startsWith(prefix));
    List<Call> failed = calls.stream().filter(c -> c.status() == 503).toList();
    assertThat(failed).isNotEmpty();
    assertThat(
            Duration.between(
                failed.get(0).receivedAt(), failed.get(failed.size() - 1).receivedAt()))
        .as("the provider was down for ten times the whole retry budget")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    assertThat(failed.get(failed.size() - 1).receivedAt()).isBefore(downUntil.plusSeconds(1));
    assertThat(failed.size())
        .as("while its breaker was open the destination was only probed, once per cool-down")
        .isLessThan(30 + 20);
    assertThat(
            OutboxRows.longs(
                    "SELECT max(attempts - attempts_at_retry) FROM outbox.outbox"
                        + " WHERE idempotency_key LIKE ?",
                    prefix + "%")
                .get(0))
        .as("the most attempts the outage cost a row, of its 3")
        .isLessThanOrEqualTo(3);
    assertThat(calls.stream().filter(Call::effective).count()).isEqualTo(ids.size());
  }

  /**
   * Inserts steady rows enough for more than a window, waits until they flow, and counts those
   * delivered in one window; the rest are cancelled so that they take nothing from what follows.
   */
  private long deliveredInAWindow(String prefix) {
    OutboxRows.insert(rows("steady", prefix, 320));
    long first =
        await()
            .pollInSameThread()
            .atMost(Duration.ofSeconds(20))
            .until(() -> firstDeliveredMicros(prefix), micros -> micros > 0);
    OffsetDateTime from = at(first + SETTLE.toNanos() / 1000);
    OffsetDateTime to = from.plus(WINDOW);
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count(prefix, "delivered_at >= ?", to) > 0);
    long delivered = count(prefix, "delivered_at >= ? AND delivered_at < ?", from, to);
    OutboxRows.longs(
        "UPDATE outbox.outbox SET status = 'cancelled', cancelled_at = now()"
            + " WHERE idempotency_key LIKE ? AND status = 'pending' RETURNING id",
        prefix + "%");
    return delivered;
  }

  /**
   * When the first row of {@code prefix} was delivered, in microseconds since the epoch; 0: none.
   */
  private static long firstDeliveredMicros(String prefix) {
    return OutboxRows.longs(
            "SELECT coalesce((extract(epoch FROM min(delivered_at)) * 1000000)::bigint, 0)"
                + " FROM outbox.outbox WHERE idempotency_key LIKE ?",
            prefix + "%")
        .get(0);
  }

  private static OffsetDateTime at(long epochMicros) {
    return Instant.EPOCH.plusNanos(epochMicros * 1000).atOffset(ZoneOffset.UTC);
  }

  /** Rows of {@code prefix} that also match {@code where} (with its parameters). */
  private static long count(String prefix, String where, Object... parameters) {
    Object[] all = new Object[parameters.length + 1];
    all[0] = prefix + "%";
    System.arraycopy(parameters, 0, all, 1, parameters.length);
    return OutboxRows.longs(
            "SELECT count(*) FROM outbox.outbox WHERE idempotency_key LIKE ? AND " + where, all)
        .get(0);
  }

  private Duration spanOfCalls(String prefix) {
    List<Call> calls = stub.calls(k -> k.startsWith(prefix));
    return calls.isEmpty()
        ? Duration.ZERO
        : Duration.between(calls.get(0).receivedAt(), calls.get(calls.size() - 1).receivedAt());
  }

  private static List<NewRow> rows(String destination, String prefix, int count) {
    List<NewRow> rows = new ArrayList<>(count);
    IntStream.range(0, count)
        .forEach(i -> rows.add(new NewRow(destination, "{\"n\":" + i + "}", prefix + i, null)));
    return rows;
  }
}
