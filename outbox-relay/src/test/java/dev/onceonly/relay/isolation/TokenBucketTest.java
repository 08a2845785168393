package dev.onceonly.relay.isolation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Test
  void aBurstOfASecondsWorthThenTheRate() {
    TokenBucket bucket = new TokenBucket(20, 0);

    assertThat(bucket.available(0)).isEqualTo(20);
    bucket.take(20, 0);
    assertThat(bucket.available(0)).isZero();
    assertThat(bucket.nanosUntil(1, 0)).isEqualTo(50 * MS);
    assertThat(bucket.nanosUntil(10, 0)).as("a lease's worth").isEqualTo(500 * MS);
    assertThat(bucket.nanosUntil(100, 0)).as("never more than a burst").isEqualTo(1_000 * MS);
    assertThat(bucket.available(100 * MS)).isEqualTo(2);
    assertThat(bucket.available(10_000 * MS)).as("never more than a second's worth").isEqualTo(20);
  }

  @Test
  void aRateBelowOnePerSecondStillAllowsOneCall() {
    TokenBucket bucket = new TokenBucket(0.5, 0);

    assertThat(bucket.available(0)).isEqualTo(1);
    bucket.take(1, 0);
    assertThat(bucket.available(1_999 * MS)).isZero();
    assertThat(bucket.available(2_000 * MS)).isEqualTo(1);
  }

  @Test
  void aRateThatIsNotPositiveIsRefused() {
    assertThatThrownBy(() -> new TokenBucket(0, 0)).hasMessageContaining("rate-limit must be > 0");
    assertThatThrownBy(() -> new TokenBucket(Double.NaN, 0)).hasMessageContaining("> 0");
  }
}
