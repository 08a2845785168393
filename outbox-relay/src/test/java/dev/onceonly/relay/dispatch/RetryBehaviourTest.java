package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Attempt;
import dev.onceonly.relay.support.OutboxRows.Row;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Call;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Retries as configured for tests: backoff 200 ms doubling, jitter 0.2, read timeout 2 s, 5
 * attempts. Delays are checked on the recorded attempt times.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class RetryBehaviourTest {

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void takeEffectThenFailIsRetriedWithTheSameKeyAndTakesEffectOnce() {
    String key = OutboxRows.uniquePrefix("effect-then-fail") + "receipt";
    stub.script(key, Step.takeEffectThenFail());
    long id = OutboxRows.insert(OutboxRows.receipt(key));

    awaitStatus(id, "delivered", Duration.ofSeconds(10));

    List<Call> calls = stub.calls(key);
    assertThat(calls).extracting(Call::status).containsExactly(500, 200);
    assertThat(calls).filteredOn(Call::effective).hasSize(1);
    assertThat(calls.get(0).effective()).as("the failed call is the one that took effect").isTrue();
    assertThat(OutboxRows.attempts(id))
        .extracting(Attempt::outcome)
        .containsExactly("retry", "delivered");
  }

  @Test
  void serverErrorsAndTimeoutsAreRetriedWithGrowingDelays() {
    String key = OutboxRows.uniquePrefix("growing") + "receipt";
    stub.script(
        key,
        Step.status(503),
        Step.status(502),
        Step.status(503).held(Duration.ofMillis(2_300)), // past the 2 s read timeout
        Step.status(500));
    long id = OutboxRows.insert(OutboxRows.receipt(key));

    awaitStatus(id, "delivered", Duration.ofSeconds(20));

    List<Attempt> attempts = OutboxRows.attempts(id);
    assertThat(attempts)
        .extracting(Attempt::outcome)
        .containsExactly("retry", "retry", "retry", "retry", "delivered");
    assertThat(attempts.get(2).httpStatus()).isNull();
    assertThat(attempts.get(2).error()).contains("timeout");
    List<Long> gaps = gaps(attempts);
    for (int i = 0; i < gaps.size(); i++) {
      long lowestDelay = Math.round(200 * Math.pow(2, i) * 0.8);
      assertThat(gaps.get(i))
          .as("delay after attempt %d", i + 1)
          .isGreaterThanOrEqualTo(lowestDelay);
    }
    assertThat(gaps).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
    assertThat(stub.calls(key)).extracting(Call::key).containsOnly(key);
  }

  @Test
  void retryAfterIsHonouredWhenLongerThanTheBackoff() {
    String key = OutboxRows.uniquePrefix("retry-after") + "receipt";
    stub.script(key, Step.retryAfter(429, "2"));
    long id = OutboxRows.insert(OutboxRows.receipt(key));

    awaitStatus(id, "delivered", Duration.ofSeconds(10));

    List<Attempt> attempts = OutboxRows.attempts(id);
    assertThat(attempts).extracting(Attempt::httpStatus).containsExactly(429, 200);
    assertThat(gaps(attempts).get(0)).isGreaterThanOrEqualTo(2_000);
  }

  @Test
  void retryAfterIsHonouredUpToItsMaximumAndNeverSinksTheOtherCompletions() {
    // relay.retry-after-max is 2 s in tests (15 minutes by default).
    String prefix = OutboxRows.uniquePrefix("retry-after-max");
    List<String> throttled = List.of(prefix + "68-years", prefix + "past-millis", prefix + "date");
    stub.script(throttled.get(0), Step.retryAfter(429, "2147483647"));
    stub.script(throttled.get(1), Step.retryAfter(503, "9223372036854775807"));
    stub.script(throttled.get(2), Step.retryAfter(429, "Fri, 31 Dec 9999 23:59:59 GMT"));
    List<String> healthy = List.of(prefix + "ok-1", prefix + "ok-2", prefix + "ok-3");
    List<String> keys = new ArrayList<>(throttled);
    keys.addAll(healthy);
    List<Long> ids = OutboxRows.insert(keys.stream().map(OutboxRows::receipt).toList());

    for (long id : ids) {
      awaitStatus(id, "delivered", Duration.ofSeconds(15));
    }

    for (int i = 0; i < throttled.size(); i++) {
      List<Attempt> attempts = OutboxRows.attempts(ids.get(i));
      assertThat(attempts).extracting(Attempt::outcome).containsExactly("retry", "delivered");
      assertThat(gaps(attempts).get(0))
          .as("%s waited the maximum, not what it asked", throttled.get(i))
          .isBetween(2_000L, 6_000L);
    }
    for (int i = throttled.size(); i < keys.size(); i++) {
      assertThat(stub.calls(keys.get(i))).as("sent once: its completion was written").hasSize(1);
      assertThat(OutboxRows.attempts(ids.get(i)))
          .extracting(Attempt::outcome)
          .containsExactly("delivered");
    }
  }

  @Test
  void badRequestGoesDeadAtOnce() {
    String key = OutboxRows.uniquePrefix("bad-request") + "receipt";
    stub.always(key, Step.status(400));
    long id = OutboxRows.insert(OutboxRows.receipt(key));

    awaitStatus(id, "dead", Duration.ofSeconds(10));

    Row row = OutboxRows.row(id);
    assertThat(row.attempts()).isEqualTo(1);
    assertThat(row.lastHttpStatus()).isEqualTo(400);
    assertThat(row.lastError()).contains("permanent failure").contains("HTTP 400");
    assertThat(row.leaseOwner()).isNull();
    assertThat(stub.calls(key)).hasSize(1);
  }

  @Test
  void rowGoesDeadWhenMaxAttemptsAreExhausted() {
    String key = OutboxRows.uniquePrefix("exhausted") + "payout";
    stub.always(key, Step.status(503));
    long id =
        OutboxRows.insert(new OutboxRows.NewRow("issue_payout", "{\"cents\":500}", key, null));

    awaitStatus(id, "dead", Duration.ofSeconds(20));

    Row row = OutboxRows.row(id);
    assertThat(row.attempts()).isEqualTo(5);
    assertThat(row.lastError()).contains("attempts exhausted (5/5)");
    assertThat(stub.calls(key)).hasSize(5).extracting(Call::path).containsOnly("/v1/payouts");
    assertThat(OutboxRows.attempts(id))
        .extracting(Attempt::outcome)
        .containsExactly("retry", "retry", "retry", "retry", "dead");
  }

  private static void awaitStatus(long id, String status, Duration atMost) {
    await().pollInSameThread().atMost(atMost).until(() -> OutboxRows.status(id).equals(status));
  }

  /** Milliseconds between the end of each attempt and the start of the next. */
  private static List<Long> gaps(List<Attempt> attempts) {
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < attempts.size(); i++) {
      gaps.add(
          Duration.between(attempts.get(i - 1).finishedAt(), attempts.get(i).startedAt())
              .toMillis());
    }
    return gaps;
  }
}
