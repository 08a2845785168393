package dev.onceonly.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a failover (scenarios 13 and 14) did, computed from three readings: the standby just before
 * it was promoted (what the new primary starts with), the promoted node once the stream has
 * settled, and the killed primary's data directory started again aside (what the old primary had
 * committed when it died). Pure: no I/O, so that it can be shown a breach.
 */
final class FailoverFindings {

  /** A lease: the row, the relay holding it, and the attempt it counts (the fence). */
  record Lease(long rowId, String relay, int attempt) {}

  /** One attempt record: whose lease it was, when its call started, what it wrote. */
  record AttemptRecord(Lease lease, Instant startedAt, String outcome) {}

  /**
   * A node's state, read at one moment.
   *
   * @param claims every claim, as {@code consumer/message_key}
   * @param leases rows in flight, with their lease
   * @param attempts every attempt record
   * @param delivered ids of the rows delivered
   * @param lastCommit the newest commit among the rows read (null if unknown)
   */
  record NodeState(
      Set<String> claims,
      Set<Lease> leases,
      List<AttemptRecord> attempts,
      Set<Long> delivered,
      Instant lastCommit) {}

  static final String LEASE_LOST = "lease_lost";

  private FailoverFindings() {}

  /**
   * Completions the fence let through that it must not have: attempt records on the promoted node
   * that it did not have at promotion, for calls started before the promotion (so their lease was
   * taken on the old primary), that wrote an outcome although the promoted node never had that
   * lease. A lease that reached the standby is the promoted node's own and may complete.
   */
  static List<AttemptRecord> fenceBreaches(
      NodeState atPromotion, NodeState settled, Instant promotedAt) {
    Set<Lease> before = leasesOf(atPromotion.attempts());
    return settled.attempts().stream()
        .filter(a -> !before.contains(a.lease()))
        .filter(a -> a.startedAt().isBefore(promotedAt))
        .filter(a -> !LEASE_LOST.equals(a.outcome()))
        .filter(a -> !atPromotion.leases().contains(a.lease()))
        .toList();
  }

  /** Completions of old-primary leases written after the switch that the fence turned away. */
  static long fencedOff(NodeState atPromotion, NodeState settled, Instant promotedAt) {
    Set<Lease> before = leasesOf(atPromotion.attempts());
    return settled.attempts().stream()
        .filter(a -> !before.contains(a.lease()))
        .filter(a -> a.startedAt().isBefore(promotedAt))
        .filter(a -> LEASE_LOST.equals(a.outcome()))
        .count();
  }

  /** Leases the old primary granted that the standby never received. */
  static Set<Lease> leasesLost(NodeState oldPrimary, NodeState atPromotion) {
    Set<Lease> granted = new HashSet<>(oldPrimary.leases());
    granted.addAll(leasesOf(oldPrimary.attempts()));
    granted.removeAll(atPromotion.leases());
    granted.removeAll(leasesOf(atPromotion.attempts()));
    return granted;
  }

  /** Claims the old primary committed that the standby did not have when it was promoted. */
  static Set<String> claimsNotReplicated(NodeState oldPrimary, NodeState atPromotion) {
    Set<String> lost = new HashSet<>(oldPrimary.claims());
    lost.removeAll(atPromotion.claims());
    return lost;
  }

  /**
   * Of the claims that never reached the standby, those the promoted node never got either: their
   * messages had been acked (an unacked one comes back and is claimed again), so their effects are
   * gone.
   */
  static Set<String> ackedAndLost(NodeState oldPrimary, NodeState atPromotion, NodeState settled) {
    Set<String> lost = claimsNotReplicated(oldPrimary, atPromotion);
    lost.removeAll(settled.claims());
    return lost;
  }

  /**
   * Rows the old primary had marked delivered that the standby had not: their completion was lost
   * in the switch, and the promoted node sends them again with the same key.
   */
  static Set<Long> completionsLost(NodeState oldPrimary, NodeState atPromotion) {
    Set<Long> lost = new HashSet<>(oldPrimary.delivered());
    lost.removeAll(atPromotion.delivered());
    return lost;
  }

  /**
   * How much older the standby's newest commit was than the old primary's: the window of commits a
   * promotion threw away (zero when the standby had them all).
   */
  static Duration window(NodeState oldPrimary, NodeState atPromotion) {
    if (oldPrimary.lastCommit() == null || atPromotion.lastCommit() == null) {
      return null;
    }
    Duration d = Duration.between(atPromotion.lastCommit(), oldPrimary.lastCommit());
    return d.isNegative() ? Duration.ZERO : d;
  }

  /**
   * Effects the provider took more than once: extra effects for one key, and effective calls beyond
   * one per key. An effect whose outbox row a failover lost is not a double (its key was taken
   * once), so this is the provider's own count, not the invariants'.
   */
  static long doubledAtProvider(Map<String, Long> effectsPerKey, long effectiveCalls) {
    long extra = effectsPerKey.values().stream().mapToLong(v -> Math.max(0, v - 1)).sum();
    return extra + Math.max(0, effectiveCalls - effectsPerKey.size());
  }

  /** Provider effects whose key no outbox row on the promoted node has: their row was lost. */
  static Set<String> orphanEffects(Map<String, Long> effectsPerKey, Set<String> outboxKeys) {
    Set<String> orphans = new HashSet<>(effectsPerKey.keySet());
    orphans.removeAll(outboxKeys);
    return orphans;
  }

  private static Set<Lease> leasesOf(List<AttemptRecord> attempts) {
    Set<Lease> leases = new HashSet<>();
    attempts.forEach(a -> leases.add(a.lease()));
    return leases;
  }
}
