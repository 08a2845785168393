package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClaimBatchesTest {

  private static final Instant T = Instant.parse("2026-12-03T05:00:00Z");

  /** Untimed, poisoned {a, b, c}, clean {d, e}, untimed: the first and last are not counted. */
  private static final List<PoisonBlocks.Block> BLOCKS =
      List.of(
          new PoisonBlocks.Block(true, 1, 1, 0, Set.of("z")),
          new PoisonBlocks.Block(true, 4, 3, 1, Set.of("a", "b", "c")),
          new PoisonBlocks.Block(false, 2, 2, 0, Set.of("d", "e")),
          new PoisonBlocks.Block(false, 1, 1, 0, Set.of("y")));

  private static ClaimBatches.Claim claim(String consumer, String key, int ms) {
    return new ClaimBatches.Claim(consumer, key, T.plusMillis(ms));
  }

  @Test
  void oneConsumersClaimsWithOneTransactionStartAreOneTransactionCountedByItsStretch() {
    List<ClaimBatches.Claim> claims =
        List.of(
            claim("loyalty", "a", 1),
            claim("loyalty", "b", 1),
            claim("receipts", "a", 1), // another consumer: another transaction
            claim("receipts", "b", 2),
            claim("receipts", "c", 2),
            claim("loyalty", "c", 3),
            claim("loyalty", "d", 4),
            claim("loyalty", "e", 4),
            claim("receipts", "d", 5),
            claim("receipts", "e", 6),
            claim("loyalty", "z", 1), // untimed stretches: left out
            claim("receipts", "y", 6));

    ClaimBatches.Split split = ClaimBatches.of(BLOCKS, claims);

    assertThat(split).isEqualTo(new ClaimBatches.Split(4, 3, 6, 4));
    assertThat(split.cleanPerTransaction()).isCloseTo(4 / 3.0, within(1e-9));
    assertThat(split.poisonedPerTransaction()).isEqualTo(1.5);
    assertThat(split.moreCommits()).isCloseTo((4 / 3.0) / 1.5 - 1, within(1e-9));
  }

  @Test
  void aTransactionAcrossABoundaryCountsOnceInEachKind() {
    List<ClaimBatches.Claim> claims =
        List.of(claim("loyalty", "c", 7), claim("loyalty", "d", 7), claim("loyalty", "e", 7));

    assertThat(ClaimBatches.of(BLOCKS, claims)).isEqualTo(new ClaimBatches.Split(2, 1, 1, 1));
  }

  @Test
  void runsAddUpAndTheNoteSaysHowMuchMoreOftenThePoisonedStretchesCommitted() {
    ClaimBatches.Split sum =
        new ClaimBatches.Split(300, 50, 250, 50).plus(new ClaimBatches.Split(260, 50, 260, 52));

    assertThat(sum).isEqualTo(new ClaimBatches.Split(560, 100, 510, 102));
    assertThat(sum.describe())
        .isEqualTo(
            "claim transactions: 5.60 first claims each in clean stretches (560 in 100), 5.00 in"
                + " poisoned ones (510 in 102); with the poison the consumers committed 12 % more"
                + " often for the same first claims");
    assertThat(ClaimBatches.Split.NONE.plus(sum)).isEqualTo(sum);
  }

  @Test
  void eachKeysLatestClaimByAnyConsumerTellsWhenItsStretchWasDone() {
    List<ClaimBatches.Claim> claims =
        List.of(claim("loyalty", "a", 5), claim("receipts", "a", 9), claim("loyalty", "b", 2));

    assertThat(ClaimBatches.latest(claims))
        .containsExactlyInAnyOrderEntriesOf(Map.of("a", T.plusMillis(9), "b", T.plusMillis(2)));
  }
}
