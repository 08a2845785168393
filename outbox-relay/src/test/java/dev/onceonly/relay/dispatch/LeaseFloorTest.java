package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.lease.OutboxRepository.IdBounds;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LeaseFloorTest {

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final LeaseFloor floor = new LeaseFloor(Duration.ofSeconds(1), clock::get);

  private static IdBounds bounds(long lowestWaiting, long highest) {
    return new IdBounds(OptionalLong.of(lowestWaiting), highest);
  }

  private static IdBounds nothingWaiting(long highest) {
    return new IdBounds(OptionalLong.empty(), highest);
  }

  @Test
  void theFirstReadingSkipsNothing() {
    assertThat(floor.stale()).isTrue();
    assertThat(floor.value()).isZero();

    floor.update(bounds(5_000, 9_000));

    // Ids up to 9,000 may have been taken by transactions that have not committed yet.
    assertThat(floor.value()).isEqualTo(1);
  }

  @Test
  void theFloorIsTheLowestWaitingIdOrOnePastTheHighestIdOfTheReadingBefore() {
    floor.update(bounds(100, 2_000));
    clock.addAndGet(Duration.ofSeconds(1).toNanos());

    floor.update(bounds(1_500, 4_000));
    assertThat(floor.value()).isEqualTo(1_500);

    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    floor.update(nothingWaiting(6_000));
    assertThat(floor.value()).isEqualTo(4_001);
  }

  @Test
  void aNewReadingIsDueOnlyAfterTheRefreshInterval() {
    floor.update(nothingWaiting(10));
    assertThat(floor.stale()).isFalse();

    clock.addAndGet(Duration.ofMillis(999).toNanos());
    assertThat(floor.stale()).isFalse();

    clock.addAndGet(Duration.ofMillis(1).toNanos());
    assertThat(floor.stale()).isTrue();
  }

  @Test
  void aRowThatAppearsBelowTheFloorLowersIt() {
    floor.update(nothingWaiting(1_000));
    floor.update(nothingWaiting(3_000));
    assertThat(floor.value()).isEqualTo(1_001);

    // A transaction that took id 700 long ago commits; the next reading sees it waiting.
    boolean lowered = floor.update(bounds(700, 3_000));

    assertThat(lowered).isTrue();
    assertThat(floor.value()).isEqualTo(700);
    assertThat(floor.update(bounds(700, 3_000))).isFalse();
  }

  @Test
  void idsThatStartAgainLowerTakeTheFloorDownWithThem() {
    floor.update(nothingWaiting(50_000));
    floor.update(nothingWaiting(50_000));
    assertThat(floor.value()).isEqualTo(50_001);

    // The outbox was emptied and its sequence restarted: ids begin at 1 again.
    floor.update(bounds(3, 10));
    floor.update(nothingWaiting(10));

    assertThat(floor.value()).isEqualTo(11);
  }
}
