package dev.onceonly.relay.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.DeliveryResult.Classification;
import dev.onceonly.relay.retry.Decision.Verdict;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

  private final Instant now = Instant.parse("2025-03-01T10:00:00Z");
  private final RetryPolicy policy =
      new RetryPolicy(
          new Backoff(Duration.ofSeconds(1), 2.0, Duration.ofMinutes(1), 0.0),
          4,
          Duration.ofMinutes(15));

  @Test
  void successIsDelivered() {
    assertThat(decide(answered(201, null, "{}"), 1).verdict()).isEqualTo(Verdict.DELIVERED);
  }

  @Test
  void serverErrorIsRetriedAfterBackoff() {
    Decision decision = decide(answered(503, null, "busy"), 2);
    assertThat(decision.verdict()).isEqualTo(Verdict.RETRY);
    assertThat(decision.retryIn()).isEqualTo(Duration.ofSeconds(2));
    assertThat(decision.reason()).isEqualTo("HTTP 503: busy");
  }

  @Test
  void retryAfterWinsWhenLongerThanBackoff() {
    Decision decision = decide(answered(429, "30", ""), 1);
    assertThat(decision.retryIn()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void retryAfterIsHonouredUpToItsMaximum() {
    Decision decision = decide(answered(429, "2147483647", ""), 1);
    assertThat(decision.verdict()).isEqualTo(Verdict.RETRY);
    assertThat(decision.retryIn()).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void backoffWinsWhenRetryAfterIsShorter() {
    Decision decision = decide(answered(429, "1", ""), 3);
    assertThat(decision.retryIn()).isEqualTo(Duration.ofSeconds(4));
  }

  @Test
  void retryAfterAsHttpDateIsHonoured() {
    Decision decision = decide(answered(503, "Sat, 01 Mar 2025 10:01:00 GMT", ""), 1);
    assertThat(decision.retryIn()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void clientErrorIsDeadAtOnce() {
    Decision decision = decide(answered(400, null, "bad amount"), 1);
    assertThat(decision.verdict()).isEqualTo(Verdict.DEAD);
    assertThat(decision.reason()).contains("permanent").contains("HTTP 400").contains("bad amount");
  }

  @Test
  void lastAllowedAttemptFailingIsDead() {
    Decision decision = decide(DeliveryResult.noAnswer("timeout after 2000 ms"), 4);
    assertThat(decision.verdict()).isEqualTo(Verdict.DEAD);
    assertThat(decision.reason()).contains("attempts exhausted (4/4)").contains("timeout");
  }

  @Test
  void attemptBeforeTheLastIsStillRetried() {
    assertThat(decide(DeliveryResult.noAnswer("connection refused"), 3).verdict())
        .isEqualTo(Verdict.RETRY);
  }

  @Test
  void anAttemptThatDoesNotCountIsRetriedEvenPastTheLastAllowedOne() {
    Decision decision = policy.decide(DeliveryResult.noAnswer("timeout"), 4, false, now, 0.0);
    assertThat(decision.verdict()).isEqualTo(Verdict.RETRY);
    assertThat(decision.retryIn()).isEqualTo(Duration.ofSeconds(8));
  }

  @Test
  void aFinalAnswerIsDeadWhetherItCountsOrNot() {
    assertThat(policy.decide(answered(422, null, "no"), 1, false, now, 0.0).verdict())
        .isEqualTo(Verdict.DEAD);
  }

  /** An HTTP answer classified as the default response classes do. */
  private static DeliveryResult answered(int status, String retryAfter, String body) {
    Classification classification =
        status / 100 == 2
            ? Classification.SUCCESS
            : status == 429 || status / 100 == 5 ? Classification.RETRYABLE : Classification.FINAL;
    return DeliveryResult.answered(classification, status, retryAfter, body);
  }

  private Decision decide(DeliveryResult response, int attempt) {
    return policy.decide(response, attempt, now, 0.0);
  }
}
