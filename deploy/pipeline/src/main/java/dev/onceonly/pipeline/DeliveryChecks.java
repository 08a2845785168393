package dev.onceonly.pipeline;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The outbox side of the proof: every outbox row delivered, and the provider took each exactly once
 * although some keys were called more than once.
 */
final class DeliveryChecks {

  private final Proof proof;
  private final PipelineDb db;

  DeliveryChecks(Proof proof, PipelineDb db) {
    this.proof = proof;
    this.db = db;
  }

  /** One outbox kind against the sandbox API it calls, with the number of rows it must have. */
  void run(String kind, long expectedRows, String because, SandboxStats provider)
      throws SQLException {
    proof.section(
        "External effects: outbox " + kind + " → provider /v1/" + provider.api() + " (relay)");
    List<String[]> rows = db.pairs(PipelineDb.SQL_OUTBOX_KEYS, kind);
    long delivered = rows.stream().filter(r -> r[1].equals("delivered")).count();
    proof.check(
        rows.size() == expectedRows && delivered == rows.size(),
        "outbox %s rows %d = %s %d, delivered %d",
        kind,
        rows.size(),
        because,
        expectedRows,
        delivered);

    Set<String> keys = new HashSet<>();
    rows.forEach(r -> keys.add(r[0]));
    Set<String> effectKeys = new HashSet<>();
    provider.effects().forEach(e -> effectKeys.add(e.key()));
    Set<String> missing = new HashSet<>(keys);
    missing.removeAll(effectKeys);
    Set<String> extra = new HashSet<>(effectKeys);
    extra.removeAll(keys);
    proof.check(
        provider.effectiveCalls() == rows.size()
            && effectKeys.size() == provider.effects().size()
            && missing.isEmpty()
            && extra.isEmpty(),
        "taken exactly once by the provider: %d effective calls = %d rows; effects by key:"
            + " %d missing, %d extra",
        provider.effectiveCalls(),
        rows.size(),
        missing.size(),
        extra.size());
    proof.check(
        provider.rawCalls() > provider.effectiveCalls(),
        "retried calls absorbed: %d raw calls > %d effective (%d keys called more than once)",
        provider.rawCalls(),
        provider.effectiveCalls(),
        provider.keysCalledMoreThanOnce());
    proof.check(
        provider.replays() > 0,
        "stored answers replayed to keys retried after their effect: %d replays (%d refusals)",
        provider.replays(),
        provider.refusals());
    proof.note("faults injected by the sandbox: %s", provider.injectedFaults());
    Map<String, Long> attempts = db.counts(PipelineDb.SQL_ATTEMPTS_BY_KIND_OUTCOME);
    StringBuilder byOutcome = new StringBuilder();
    attempts.forEach(
        (k, v) -> {
          if (k.startsWith(kind + "/")) {
            byOutcome.append(k.substring(kind.length() + 1)).append(' ').append(v).append("  ");
          }
        });
    proof.note("relay attempts by outcome: %s", byOutcome.toString().trim());
  }

  /** The money check: the payouts the provider took add up to what the covered redemptions pay. */
  void payoutAmounts(SandboxStats payouts, long expectedCents) {
    long paid =
        payouts.effects().stream().mapToLong(e -> e.body().path("amountCents").asLong()).sum();
    proof.check(
        paid == expectedCents,
        "payout money: the provider paid %d cents in all = %d cents the covered redemptions owe",
        paid,
        expectedCents);
  }

  /** Nothing pending, nothing in flight, nothing dead; rows that are not delivered are listed. */
  void outboxSettled() throws SQLException {
    proof.section("Outbox settled");
    Map<String, Long> byKindStatus = db.counts(PipelineDb.SQL_OUTBOX_BY_KIND_STATUS);
    long pending = sum(byKindStatus, "pending") + sum(byKindStatus, "in_flight");
    long dead = sum(byKindStatus, "dead");
    long cancelled = sum(byKindStatus, "cancelled");
    proof.check(pending == 0, "nothing pending or in flight: %d rows", pending);
    proof.check(
        dead == 0 && cancelled == 0, "nothing dead (%d) or cancelled (%d)", dead, cancelled);
    List<String[]> unfinished = db.pairs(PipelineDb.SQL_UNFINISHED_ROWS);
    for (String[] row : unfinished) {
      proof.note("not delivered: %s", row[0]);
    }
    if (pending + dead + cancelled > unfinished.size()) {
      proof.note(
          "… and %d more rows not delivered", pending + dead + cancelled - unfinished.size());
    }
  }

  private static long sum(Map<String, Long> byKindStatus, String status) {
    return byKindStatus.entrySet().stream()
        .filter(e -> e.getKey().endsWith("/" + status))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }
}
