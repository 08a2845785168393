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
    return layout(plan, count, false);
  }

  private static PoisonBlocks.Layout layout(FeedPlan of, int count, boolean mirrored) {
    AtomicInteger numbered = new AtomicInteger();
    Random rnd = new Random(3);
    return PoisonBlocks.layout(
        of.stream(),
        PoisonBlocks.keys(of.opening()),
        count,
        mirrored,
        0.10,
        n -> Traffic.invalid(numbered.getAndAdd(n), n, rnd),
        new Random(5));
  }

  @Test
  void theTimedStretchesGoPoisonedCleanCleanPoisonedSoBothKindsSitAtTheSamePlaceOnAverage() {
    List<Boolean> timed =
        IntStream.range(1, 9).mapToObj(i -> PoisonBlocks.poisoned(i, false)).toList();

    assertThat(timed).containsExactly(true, false, false, true, true, false, false, true);
    assertThat(IntStream.range(1, 9).filter(i -> PoisonBlocks.poisoned(i, false)).sum())
        .isEqualTo(IntStream.range(1, 9).filter(i -> !PoisonBlocks.poisoned(i, false)).sum());
  }

  @Test
  void aMirroredRunPoisonsTheStretchesTheOtherLeavesClean() {
    PoisonBlocks.Layout mirrored = layout(plan, 10, true);
    PoisonBlocks.Layout straight = layout(10);

    for (int i = 0; i < 10; i++) {
      assertThat(mirrored.blocks().get(i).poisoned())
          .as("stretch %d", i)
          .isNotEqualTo(straight.blocks().get(i).poisoned());
      assertThat(mirrored.blocks().get(i).invalid() > 0)
          .isEqualTo(mirrored.blocks().get(i).poisoned());
    }
    assertThat(IntStream.range(1, 9).mapToObj(i -> PoisonBlocks.poisoned(i, true)).toList())
        .containsExactly(false, true, true, false, false, true, true, false);
  }

  @Test
  void everyMessageOfTheStreamGoesOutOnceWithPoisonOnlyInPoisonedStretches() {
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
      fromStream.addAll(part);
      assertThat(extra)
          .hasSize(block.invalid())
          .allMatch(m -> PoisonBlocks.keys(List.of(m)).isEmpty());
      assertThat(block.healthy())
          .isEqualTo(
              (int) part.stream().filter(m -> !PoisonBlocks.keys(List.of(m)).isEmpty()).count());
      if (block.poisoned()) {
        assertThat((double) block.invalid() / (part.size() + extra.size()))
            .isCloseTo(0.10, within(0.01));
      } else {
        assertThat(block.invalid()).isZero();
        assertThat(part).allMatch(m -> !PoisonBlocks.keys(List.of(m)).isEmpty());
      }
    }
    assertThat(offset).isEqualTo(layout.messages().size());
    assertThat(fromStream).containsExactlyInAnyOrderElementsOf(plan.stream());
  }

  @Test
  void everyCopyOfAKeyGoesInTheStretchThatOwnsItAndNoStretchOwnsAKeyPublishedBefore() {
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
      for (Outgoing m : layout.messages().subList(offset, offset + block.size())) {
        for (String key : PoisonBlocks.keys(List.of(m))) {
          if (!opening.contains(key)) {
            assertThat(owner.get(key)).as("a copy of %s", key).isEqualTo(i);
          }
        }
      }
      offset += block.size();
    }
    assertThat(owner.keySet())
        .containsExactlyInAnyOrderElementsOf(
            PoisonBlocks.keys(plan.stream()).stream().filter(k -> !opening.contains(k)).toList());
  }

  @Test
  void everyStretchHoldsAboutAsManyFirstClaimsAsTheOthers() {
    PoisonBlocks.Layout layout = layout(FeedPlan.build(200, 6_000, 100, 17, T0), 10, false);

    List<Integer> firstClaims = layout.blocks().stream().map(b -> b.keys().size()).toList();
    double mean = firstClaims.stream().mapToInt(Integer::intValue).average().orElseThrow();
    // cut as the shuffled stream came, the first stretch held four times the last one's; with
    // the keys in the order they first came, keys of three copies crowded the first stretches
    assertThat(firstClaims).allSatisfy(n -> assertThat(n / mean).isCloseTo(1.0, within(0.08)));
    List<Integer> healthy = layout.blocks().stream().map(PoisonBlocks.Block::healthy).toList();
    assertThat(healthy)
        .allSatisfy(n -> assertThat(n / (double) healthy.get(5)).isCloseTo(1.0, within(0.02)));
  }

  @Test
  void eachTimedStretchLastsFromTheEndOfTheOneBeforeAndTheOuterOnesAreNotTimed() {
    List<PoisonBlocks.Block> blocks = new ArrayList<>();
    Map<String, Instant> claims = new HashMap<>();
    long[] endsMillis = {1_000, 3_000, 6_000, 7_000, 8_000, 20_000};
    for (int i = 0; i < endsMillis.length; i++) {
      blocks.add(block(i, 100, endsMillis[i], claims));
    }

    PoisonBlocks.Rates rates =
        PoisonBlocks.timed(blocks, claims).map(PoisonBlocks::rates).orElseThrow();

    // timed: 1 poisoned 2 s, 2 clean 3 s, 3 clean 1 s, 4 poisoned 1 s
    assertThat(rates.poisoned()).isEqualTo(Duration.ofSeconds(3));
    assertThat(rates.clean()).isEqualTo(Duration.ofSeconds(4));
    assertThat(rates.poisonedHealthy()).isEqualTo(200);
    assertThat(rates.cleanHealthy()).isEqualTo(200);
    assertThat(rates.ratio()).isCloseTo(4.0 / 3, within(1e-9));
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

    assertThat(PoisonBlocks.timed(overlapping, early)).isEmpty();
    assertThat(PoisonBlocks.timed(unclaimed, gap)).isEmpty();
  }

  @Test
  void stretchesThatCannotBeBalancedOrAShareOutsideZeroToOneAreRefused() {
    assertThatThrownBy(() -> layout(2)).hasMessageContaining("multiple of 4");
    assertThatThrownBy(() -> layout(8)).hasMessageContaining("multiple of 4");
    assertThat(layout(6).blocks()).hasSize(6);
    assertThatThrownBy(
            () ->
                PoisonBlocks.layout(
                    plan.stream(), Set.of(), 10, false, 1.0, n -> List.of(), new Random(1)))
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
    return new PoisonBlocks.Block(PoisonBlocks.poisoned(i, false), n, n, 0, Set.copyOf(keys));
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }
}
