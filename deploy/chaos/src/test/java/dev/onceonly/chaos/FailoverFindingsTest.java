package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.chaos.FailoverFindings.AttemptRecord;
import dev.onceonly.chaos.FailoverFindings.Lease;
import dev.onceonly.chaos.FailoverFindings.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailoverFindingsTest {

  private static final Instant PROMOTED = Instant.parse("2026-12-03T16:00:00Z");
  private static final Instant BEFORE = PROMOTED.minusSeconds(2);
  private static final Instant AFTER = PROMOTED.plusSeconds(3);

  private static NodeState state(Set<Lease> leases, List<AttemptRecord> attempts) {
    return new NodeState(Set.of(), leases, attempts, Set.of(), null);
  }

  @Test
  void aLostLeaseThatCompletesAfterTheSwitchIsABreach() {
    // relay-1 leased row 7 (attempt 3) on the old primary; the lease never reached the standby,
    // relay-1 leased it again on the promoted node with the same attempt number, and the old
    // call's completion then wrote the row
    Lease lease = new Lease(7, "relay-1", 3);
    NodeState atPromotion = state(Set.of(), List.of());
    NodeState settled =
        state(
            Set.of(),
            List.of(
                new AttemptRecord(lease, BEFORE, "delivered"),
                new AttemptRecord(lease, AFTER, "lease_lost")));

    assertThat(FailoverFindings.fenceBreaches(atPromotion, settled, PROMOTED))
        .containsExactly(new AttemptRecord(lease, BEFORE, "delivered"));
  }

  @Test
  void aLeaseTheStandbyHadMayComplete() {
    Lease lease = new Lease(7, "relay-1", 3);
    NodeState atPromotion = state(Set.of(lease), List.of());
    NodeState settled = state(Set.of(), List.of(new AttemptRecord(lease, BEFORE, "delivered")));

    assertThat(FailoverFindings.fenceBreaches(atPromotion, settled, PROMOTED)).isEmpty();
  }

  @Test
  void completionsTurnedAwayAndThoseReplicatedAreNoBreach() {
    Lease replicated = new Lease(5, "relay-2", 1);
    Lease lost = new Lease(7, "relay-1", 3);
    NodeState atPromotion =
        state(Set.of(), List.of(new AttemptRecord(replicated, BEFORE, "delivered")));
    NodeState settled =
        state(
            Set.of(),
            List.of(
                new AttemptRecord(replicated, BEFORE, "delivered"),
                new AttemptRecord(lost, BEFORE, "lease_lost"),
                new AttemptRecord(new Lease(7, "relay-2", 3), AFTER, "delivered")));

    assertThat(FailoverFindings.fenceBreaches(atPromotion, settled, PROMOTED)).isEmpty();
    assertThat(FailoverFindings.fencedOff(atPromotion, settled, PROMOTED)).isEqualTo(1);
  }

  @Test
  void claimsTheStandbyNeverGotAreLostUnlessTheirMessageCameBack() {
    NodeState old =
        new NodeState(
            Set.of("loyalty/a", "loyalty/b", "loyalty/c"),
            Set.of(),
            List.of(),
            Set.of(1L, 2L),
            Instant.parse("2026-12-03T16:00:00.250Z"));
    NodeState atPromotion =
        new NodeState(Set.of("loyalty/a"), Set.of(), List.of(), Set.of(1L), PROMOTED);
    NodeState settled =
        new NodeState(Set.of("loyalty/a", "loyalty/b"), Set.of(), List.of(), Set.of(1L, 2L), AFTER);

    assertThat(FailoverFindings.claimsNotReplicated(old, atPromotion))
        .containsExactlyInAnyOrder("loyalty/b", "loyalty/c");
    assertThat(FailoverFindings.ackedAndLost(old, atPromotion, settled))
        .containsExactly("loyalty/c");
    assertThat(FailoverFindings.completionsLost(old, atPromotion)).containsExactly(2L);
    assertThat(FailoverFindings.window(old, atPromotion)).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void leasesGrantedOnTheOldPrimaryAndNotReplicated() {
    Lease held = new Lease(1, "relay-1", 1);
    Lease completed = new Lease(2, "relay-2", 2);
    Lease replicated = new Lease(3, "relay-1", 1);
    NodeState old =
        state(Set.of(held, replicated), List.of(new AttemptRecord(completed, BEFORE, "delivered")));
    NodeState atPromotion = state(Set.of(replicated), List.of());

    assertThat(FailoverFindings.leasesLost(old, atPromotion))
        .containsExactlyInAnyOrder(held, completed);
  }

  @Test
  void anEffectWhoseRowWasLostIsNoDoubleButTwoEffectsForOneKeyAre() {
    Map<String, Long> effects = Map.of("k1", 1L, "k2", 1L, "orphan", 1L);

    assertThat(FailoverFindings.doubledAtProvider(effects, 3)).isZero();
    assertThat(FailoverFindings.orphanEffects(effects, Set.of("k1", "k2")))
        .containsExactly("orphan");
    assertThat(FailoverFindings.doubledAtProvider(Map.of("k1", 2L), 2)).isEqualTo(2);
  }
}
