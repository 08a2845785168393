package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.pipeline.DeadLetterPeek;
import dev.onceonly.pipeline.FeedPlan;
import dev.onceonly.pipeline.FeedSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InvariantsTest {

  private Traffic.Sent sent;
  private Map<String, Long> credits;
  private Map<String, Long> debits;
  private Map<String, Long> figures;
  private Map<String, Long> balances;
  private Map<String, String> outbox;
  private Map<String, Long> effects;
  private List<DeadLetterPeek.Queue> deadLetters;
  private long effectiveCalls;

  /** A state in which every invariant holds for a small stream. */
  @BeforeEach
  void settledState() {
    FeedSummary s = FeedPlan.build(20, 40, 100, 7, Instant.EPOCH).summary();
    sent = new Traffic.Sent(s, 0, 100, 0);
    credits = new HashMap<>();
    s.orderIds().forEach(id -> credits.put(id, 1L));
    debits = new HashMap<>();
    for (int i = 0; i < s.redemptionsCovered(); i++) {
      debits.put("rdm-" + i, 1L);
    }
    figures =
        new HashMap<>(
            Map.of(
                "receipt_claims",
                (long) s.uniqueOrders(),
                "rejected",
                (long) s.redemptionsUncovered()));
    balances = new HashMap<>(s.expectedBalances());
    outbox = new HashMap<>();
    effects = new HashMap<>();
    for (int i = 0; i < s.uniqueOrders() + s.redemptionsCovered(); i++) {
      outbox.put("key-" + i, "delivered");
      effects.put("key-" + i, 1L);
    }
    effectiveCalls = effects.size();
    List<DeadLetterPeek.Letter> bad =
        List.of(
            new DeadLetterPeek.Letter("not JSON", "invalid", "{\"eventId\": \"poison"),
            new DeadLetterPeek.Letter("negative amount", "invalid", "{…"));
    deadLetters =
        new ArrayList<>(
            List.of(
                new DeadLetterPeek.Queue("onceonly.loyalty.dlq", 2, bad),
                new DeadLetterPeek.Queue("onceonly.receipts.dlq", 2, bad),
                new DeadLetterPeek.Queue("onceonly.profiles.dlq", 0, List.of())));
  }

  private Invariants.Verdict judge() {
    return Invariants.judge(
        sent,
        new Observation(
            credits,
            debits,
            figures,
            balances,
            new HashMap<>(sent.summary().expectedProfileVersions()),
            outbox,
            effectiveCalls,
            effects,
            deadLetters));
  }

  @Test
  void settledStatePasses() {
    Invariants.Verdict v = judge();

    assertThat(v.problems()).isEmpty();
    assertThat(v.passed()).isTrue();
  }

  @Test
  void orderNeverCreditedAndKeyNeverTakenAreLost() {
    credits.remove(sent.summary().orderIds().get(3));
    effects.remove("key-5");
    effectiveCalls--;

    Invariants.Verdict v = judge();

    assertThat(v.lost()).isEqualTo(2);
    assertThat(v.doubled()).isZero();
    assertThat(v.passed()).isFalse();
    assertThat(v.problems()).anyMatch(p -> p.contains("orders never credited"));
    assertThat(v.problems()).anyMatch(p -> p.contains("outbox keys the provider never took"));
  }

  @Test
  void rowNotDeliveredIsLost() {
    outbox.put("key-0", "dead");

    assertThat(judge().lost()).isEqualTo(1);
  }

  @Test
  void secondCreditAndSecondProviderEffectAreDoubled() {
    credits.merge(sent.summary().orderIds().get(0), 1L, Long::sum);
    effectiveCalls++;

    Invariants.Verdict v = judge();

    assertThat(v.doubled()).isEqualTo(2);
    assertThat(v.lost()).isZero();
    assertThat(v.problems()).anyMatch(p -> p.contains("extra ledger credits"));
    assertThat(v.problems()).anyMatch(p -> p.contains("effective provider calls beyond one"));
  }

  @Test
  void effectUnderAKeyNoRowHasIsDoubled() {
    effects.put("key-stranger", 1L);
    effectiveCalls++;

    assertThat(judge().doubled()).isEqualTo(1);
  }

  @Test
  void balanceOffItsLedgerFails() {
    figures.put("balances_off_ledger", 1L);

    assertThat(judge().problems()).anyMatch(p -> p.contains("differ from their ledger"));
  }

  @Test
  void healthyMessageInADeadLetterQueueFails() {
    List<DeadLetterPeek.Letter> letters = new ArrayList<>(deadLetters.get(0).letters());
    letters.add(new DeadLetterPeek.Letter("connection refused", "transient", "{…"));
    deadLetters.set(0, new DeadLetterPeek.Queue("onceonly.loyalty.dlq", 3, letters));

    assertThat(judge().problems()).anyMatch(p -> p.contains("holds healthy messages"));
  }

  @Test
  void poisonMissingFromADeadLetterQueueFails() {
    deadLetters.set(1, new DeadLetterPeek.Queue("onceonly.receipts.dlq", 0, List.of()));

    assertThat(judge().problems()).anyMatch(p -> p.contains("receipts.dlq holds 0 invalid"));
  }
}
