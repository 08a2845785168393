package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.pipeline.FeedPlan;
import dev.onceonly.pipeline.Outgoing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PoisonBlocksTest {

  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

  private final FeedPlan plan = FeedPlan.build(40, 600, 100, 11, T0);

  private PoisonBlocks.Layout layout(int count) {
    AtomicInteger numbered = new AtomicInteger();
    Random rnd = new Random(3);
    return PoisonBlocks.layout(
        plan.stream(),
        PoisonBlocks.keys(plan.opening()),
        count,
        0.10,
        n -> Traffic.invalid(numbered.getAndAdd(n), n, rnd),
        new Random(5));
  }

  @Test
  void stretchesTakeTurnsInPairs() {
    List<Boolean> pattern = IntStream.range(0, 10).mapToObj(PoisonBlocks::poisoned).toList();

    assertThat(pattern)
        .containsExactly(false, true, true, false, false, true, true, false, false, true);
  }

  @Test
  void everyMessageOfTheStreamGoesOutOnceInItsStretchWithPoisonOnlyInPoisonedOnes() {
    PoisonBlocks.Layout layout = layout(10);
    Set<Outgoing> stream = new HashSet<>(plan.stream());

    List<Outgoing> fromStream = new ArrayList<>();
    int offset = 0;
    for (PoisonBlocks.Block block : layout.blocks()) {
      List<Outgoing> part = new ArrayList<>();
      List<Outgoing> extra = new ArrayList<>();
      for (Outgoing m : layout.messages().subList(offset, offset + block.size())) {
        (stream.contains(m) ? part : extra).add(m);
      }
      offset += block.size();
      assertThat(part)
          .containsExactlyInAnyOrderElementsOf(
              plan.stream().subList(fromStream.size(), fromStream.size() + part.size()));
      fromStream.addAll(part);
      assertThat(extra)
          .hasSize(block.invalid())
          .allMatch(m -> PoisonBlocks.keys(List.of(m)).isEmpty());
      if (block.poisoned()) {
        assertThat((double) block.invalid() / (part.size() + extra.size()))
            .isCloseTo(0.10, within(0.01));
      } else {
        assertThat(block.invalid()).isZero();
      }
    }
    assertThat(offset).isEqualTo(layout.messages().size());
    assertThat(fromStream).hasSameSizeAs(plan.stream());
  }

  @Test
  void aKeyBelongsToTheStretchItIsFirstPublishedInAndNeverToOnePublishedBefore() {
    PoisonBlocks.Layout layout = layout(10);
    Set<String> opening = PoisonBlocks.keys(plan.opening());

    Map<String, Integer> owner = new HashMap<>();
    for (int i = 0; i < layout.blocks().size(); i++) {
      for (String key : layout.blocks().get(i).keys()) {
        assertThat(owner.put(key, i)).as("key %s in two stretches", key).isNull();
        assertThat(opening).doesNotContain(key);
      }
    }
    int offset = 0;
    for (int i = 0; i < layout.blocks().size(); i++) {
      PoisonBlocks.Block block = layout.blocks().get(i);
      for (String key :
          PoisonBlocks.keys(layout.messages().subList(offset, offset + block.size()))) {
        if (!opening.contains(key)) {
          assertThat(owner.get(key)).as(key).isLessThanOrEqualTo(i);
        }
      }
      offset += block.size();
    }
  }

  @Test
  void eachTimedStretchLastsFromTheEndOfTheOneBeforeAndTheOuterOnesAreNotTimed() {
    List<PoisonBlocks.Block> blocks = new ArrayList<>();
    Map<String, Instant> claims = new HashMap<>();
    long[] endsMillis = {1_000, 3_000, 6_000, 7_000, 8_000, 20_000};
    for (int i = 0; i < endsMillis.length; i++) {
      blocks.add(block(i, 100, endsMillis[i], claims));
    }

    PoisonBlocks.Rates rates = PoisonBlocks.rates(blocks, claims).orElseThrow();

    // timed: 1 poisoned 2 s, 2 poisoned 3 s, 3 clean 1 s, 4 clean 1 s
    assertThat(rates.poisoned()).isEqualTo(Duration.ofSeconds(5));
    assertThat(rates.clean()).isEqualTo(Duration.ofSeconds(2));
    assertThat(rates.poisonedHealthy()).isEqualTo(200);
    assertThat(rates.cleanHealthy()).isEqualTo(200);
    assertThat(rates.ratio()).isCloseTo(0.4, within(1e-9));
  }

  @Test
  void oneLateClaimDoesNotMoveTheEndOfItsStretch() {
    Map<String, Instant> claims = new HashMap<>();
    PoisonBlocks.Block block = block(1, 200, 5_000, claims);
    Instant onTime = PoisonBlocks.done(block, claims).orElseThrow();
    claims.put("k1-0", T0.plusSeconds(60));

    assertThat(PoisonBlocks.done(block, claims).orElseThrow())
        .isAfterOrEqualTo(onTime)
        .isBeforeOrEqualTo(T0.plusMillis(5_000));
  }

  @Test
  void aRunWhoseStretchesOverlapOrWentUnclaimedIsNotTimed() {
    Map<String, Instant> early = new HashMap<>();
    List<PoisonBlocks.Block> overlapping =
        List.of(block(0, 10, 3_000, early), block(1, 10, 2_000, early), block(2, 10, 4_000, early));
    Map<String, Instant> gap = new HashMap<>();
    List<PoisonBlocks.Block> unclaimed =
        List.of(
            block(0, 10, 1_000, gap),
            new PoisonBlocks.Block(true, 10, 10, 0, Set.of("never-claimed")),
            block(2, 10, 4_000, gap));

    assertThat(PoisonBlocks.rates(overlapping, early)).isEmpty();
    assertThat(PoisonBlocks.rates(unclaimed, gap)).isEmpty();
  }

  @Test
  void fewerThanThreeStretchesOrAShareOutsideZeroToOneAreRefused() {
    assertThatThrownBy(() -> layout(2)).hasMessageContaining("at least 3");
    assertThatThrownBy(
            () ->
                PoisonBlocks.layout(
                    plan.stream(), Set.of(), 10, 1.0, n -> List.of(), new Random(1)))
        .hasMessageContaining("share");
  }

  /** Stretch {@code i}: {@code n} keys claimed over the second before {@code endMillis}. */
  private static PoisonBlocks.Block block(
      int i, int n, long endMillis, Map<String, Instant> claims) {
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      String key = "k" + i + "-" + k;
      keys.add(key);
      claims.put(key, T0.plusMillis(endMillis - 1_000 + 1_000L * (k + 1) / n));
    }
    return new PoisonBlocks.Block(PoisonBlocks.poisoned(i), n, n, 0, Set.copyOf(keys));
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }
}
