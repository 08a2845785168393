package dev.onceonly.chaos;

import dev.onceonly.pipeline.DeadLetterPeek;
import dev.onceonly.pipeline.FeedSummary;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The exactly-once invariants, computed from an {@link Observation} against what the stream sent:
 * every order credited once, every covered redemption debited once, balances equal to the ledger
 * and to what the stream implies, every outbox row delivered and taken once by the provider (its
 * effective calls = rows, the keys that took effect = the outbox keys), dead letters only for the
 * bad messages. Pure: no I/O, so that it can be shown a state with a loss or a double.
 */
final class Invariants {

  /** The judgement: effects lost, effects doubled, and every broken invariant in words. */
  record Verdict(long lost, long doubled, List<String> problems) {
    boolean passed() {
      return lost == 0 && doubled == 0 && problems.isEmpty();
    }

    Verdict with(List<String> more) {
      List<String> all = new ArrayList<>(problems);
      all.addAll(more);
      return new Verdict(lost, doubled, all);
    }
  }

  static final String FAILURE_INVALID = "invalid";

  private Invariants() {}

  static Verdict judge(Traffic.Sent sent, Observation o) {
    FeedSummary s = sent.summary();
    List<String> problems = new ArrayList<>();
    long lost = 0;
    long doubled = 0;

    Set<String> uncredited = new HashSet<>(s.orderIds());
    uncredited.removeAll(o.creditsPerOrder().keySet());
    lost += note(problems, uncredited.size(), "orders never credited, e.g. " + first(uncredited));
    long doubleCredits = excess(o.creditsPerOrder());
    doubled += note(problems, doubleCredits, "extra ledger credits for an order");
    long unclaimed = Math.max(0, s.uniqueOrders() - o.figure("receipt_claims"));
    lost += note(problems, unclaimed, "orders the receipts consumer never claimed");
    long undebited = Math.max(0, s.redemptionsCovered() - o.debitsPerRedemption().size());
    lost += note(problems, undebited, "covered redemptions never debited");
    doubled += note(problems, excess(o.debitsPerRedemption()), "extra debits for a redemption");

    long expectedRows = (long) s.uniqueOrders() + s.redemptionsCovered();
    long rows = o.outboxKeys().size();
    lost += note(problems, Math.max(0, expectedRows - rows), "outbox rows never written");
    doubled +=
        note(problems, Math.max(0, rows - expectedRows), "outbox rows beyond one per effect");
    long undelivered = o.outboxKeys().values().stream().filter(v -> !v.equals("delivered")).count();
    lost += note(problems, undelivered, "outbox rows not delivered");
    Set<String> noEffect = new HashSet<>(o.outboxKeys().keySet());
    noEffect.removeAll(o.effectsPerKey().keySet());
    lost +=
        note(
            problems,
            noEffect.size(),
            "outbox keys the provider never took, e.g. " + first(noEffect));
    Set<String> strange = new HashSet<>(o.effectsPerKey().keySet());
    strange.removeAll(o.outboxKeys().keySet());
    doubled += note(problems, strange.size(), "provider effects with a key no outbox row has");
    doubled += note(problems, excess(o.effectsPerKey()), "extra provider effects for one key");
    doubled +=
        note(
            problems,
            Math.max(0, o.effectiveCalls() - o.effectsPerKey().size()),
            "effective provider calls beyond one per key");

    note(problems, o.figure("balances_off_ledger"), "balances that differ from their ledger");
    long wrongBalances =
        s.expectedBalances().entrySet().stream()
            .filter(e -> !e.getValue().equals(o.balances().get(e.getKey())))
            .count();
    note(problems, wrongBalances, "balances that differ from what the stream implies");
    if (o.figure("rejected") != s.redemptionsUncovered()) {
      problems.add(
          "rejections "
              + o.figure("rejected")
              + " ≠ "
              + s.redemptionsUncovered()
              + " redemptions the balance does not cover");
    }
    long staleProfiles =
        s.expectedProfileVersions().entrySet().stream()
            .filter(e -> !e.getValue().equals(o.profileVersions().get(e.getKey())))
            .count();
    lost += note(problems, staleProfiles, "profiles not at their newest version");
    deadLetters(sent, o.deadLetters(), problems);
    return new Verdict(lost, doubled, problems);
  }

  /**
   * Only the bad messages in the dead-letter queues, each with its reason: every one of them in the
   * two queues of order events (a republished chunk may put a copy there twice), none in profiles,
   * and no healthy message (its failure would be "transient").
   */
  private static void deadLetters(
      Traffic.Sent sent, List<DeadLetterPeek.Queue> queues, List<String> problems) {
    for (DeadLetterPeek.Queue q : queues) {
      long invalid = q.letters().stream().filter(l -> FAILURE_INVALID.equals(l.failure())).count();
      long other = q.letters().size() - invalid;
      long unexplained = q.letters().stream().filter(l -> l.reason() == null).count();
      long expected = q.name().contains("profiles") ? 0 : sent.badPerOrderQueue();
      if (invalid < expected || (expected == 0 && invalid > 0)) {
        problems.add(q.name() + " holds " + invalid + " invalid messages, " + expected + " sent");
      }
      note(problems, other, q.name() + " holds healthy messages (failure " + failures(q) + ")");
      note(problems, unexplained, q.name() + " holds letters without a reason header");
      if (q.letters().size() < q.depth()) {
        problems.add(q.name() + " not read whole: " + q.letters().size() + " of " + q.depth());
      }
    }
  }

  private static String failures(DeadLetterPeek.Queue q) {
    Set<String> kinds = new HashSet<>();
    q.letters().forEach(l -> kinds.add(l.failure()));
    return kinds.toString();
  }

  private static long excess(Map<String, Long> perKey) {
    return perKey.values().stream().mapToLong(v -> Math.max(0, v - 1)).sum();
  }

  private static long note(List<String> problems, long count, String what) {
    if (count != 0) {
      problems.add(count + " " + what);
    }
    return count;
  }

  private static String first(Set<String> keys) {
    return keys.stream().sorted().findFirst().orElse("-");
  }
}
