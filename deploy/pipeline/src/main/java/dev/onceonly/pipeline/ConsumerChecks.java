package dev.onceonly.pipeline;

import dev.onceonly.model.MessageKeys;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The consumer side of the proof: effects in the database, duplicates, conflict, dead letters. */
final class ConsumerChecks {

  private final Proof proof;
  private final FeedSummary sent;
  private final PipelineDb db;
  private final OutcomeCounters counters;

  ConsumerChecks(Proof proof, FeedSummary sent, PipelineDb db, OutcomeCounters counters) {
    this.proof = proof;
    this.sent = sent;
    this.db = db;
    this.counters = counters;
  }

  void run(List<DeadLetterPeek.Queue> deadLetters) throws SQLException {
    proof.section("Effects in the database, applied once (consumer-service)");
    Map<String, Long> credits = db.counts(PipelineDb.SQL_LEDGER_CREDITS);
    Map<String, Long> claims = db.counts(PipelineDb.SQL_CLAIMS_BY_CONSUMER_AND_NAMESPACE);
    long loyaltyClaims = claims.getOrDefault("loyalty/order-completed", 0L);
    long receiptClaims = claims.getOrDefault("receipts/order-completed", 0L);
    proof.check(
        Proof.same(sent.uniqueOrders(), credits.size(), loyaltyClaims, receiptClaims),
        "unique orders sent %d = ledger credits %d = loyalty claims %d = receipts claims %d",
        sent.uniqueOrders(),
        credits.size(),
        loyaltyClaims,
        receiptClaims);
    Set<String> missing = new HashSet<>(sent.orderIds());
    missing.removeAll(credits.keySet());
    Set<String> extra = new HashSet<>(credits.keySet());
    extra.removeAll(sent.orderIds());
    proof.check(
        missing.isEmpty() && extra.isEmpty(),
        "nothing lost: every order sent is credited (%d missing), no credit for an order not sent"
            + " (%d extra)",
        missing.size(),
        extra.size());

    long orderDuplicates = sent.orderCopies() - sent.uniqueOrders();
    long redemptionDuplicates = sent.redemptionCopies() - sent.uniqueRedemptions();
    long loyaltyDuplicates = counters.count("loyalty", "duplicate");
    long receiptDuplicates = counters.count("receipts", "duplicate");
    proof.check(
        loyaltyDuplicates == orderDuplicates + redemptionDuplicates
            && receiptDuplicates == orderDuplicates,
        "duplicates absorbed: loyalty %d (= %d order + %d redemption copies), receipts %d (= %d)",
        loyaltyDuplicates,
        orderDuplicates,
        redemptionDuplicates,
        receiptDuplicates,
        orderDuplicates);
    proof.note(
        "%d orders were published twice at the same moment from two channels (two producers on"
            + " Kafka); %d order copies in all",
        sent.concurrentPairs(), sent.orderCopies());
    long loyaltyApplied = counters.count("loyalty", "applied");
    long receiptApplied = counters.count("receipts", "applied");
    proof.check(
        loyaltyApplied == sent.uniqueOrders() + sent.redemptionsCovered()
            && receiptApplied == sent.uniqueOrders(),
        "applied once each: loyalty %d (= %d orders + %d covered redemptions), receipts %d",
        loyaltyApplied,
        sent.uniqueOrders(),
        sent.redemptionsCovered(),
        receiptApplied);

    balances();
    conflict(credits);
    deadLetters(deadLetters);
    redemptions();
    profiles();
  }

  private void balances() throws SQLException {
    long off = db.single(PipelineDb.SQL_BALANCES_OFF_LEDGER);
    Map<String, Long> balances = db.counts(PipelineDb.SQL_BALANCES);
    proof.check(
        off == 0 && balances.size() == sent.customers(),
        "balance = sum of ledger for every customer (%d balances, %d differ from their ledger)",
        balances.size(),
        off);
    long wrong =
        sent.expectedBalances().entrySet().stream()
            .filter(e -> !e.getValue().equals(balances.get(e.getKey())))
            .count();
    long total = balances.values().stream().mapToLong(Long::longValue).sum();
    long expectedTotal = sent.expectedBalances().values().stream().mapToLong(Long::longValue).sum();
    proof.check(
        wrong == 0 && total == expectedTotal,
        "balances = what the stream implies for every customer (%d differ; %d points in all,"
            + " %d expected)",
        wrong,
        total,
        expectedTotal);
  }

  private void conflict(Map<String, Long> credits) throws SQLException {
    String key = MessageKeys.orderCompleted(sent.conflictOrderId());
    Map<String, Long> conflicts = db.counts(PipelineDb.SQL_CONFLICTS);
    boolean quarantined =
        conflicts.size() == 2
            && conflicts.getOrDefault("loyalty " + key, 0L) == 1
            && conflicts.getOrDefault("receipts " + key, 0L) == 1;
    long credited = credits.getOrDefault(sent.conflictOrderId(), -1L);
    proof.check(
        quarantined
            && counters.count("loyalty", "conflict") == 1
            && counters.count("receipts", "conflict") == 1
            && credited == sent.conflictOriginalPoints(),
        "conflict quarantined: %s, same key with another total, held by loyalty and receipts"
            + " (%d rows, counters %d/%d); the first payload's %d points count, credited %d",
        key,
        conflicts.values().stream().mapToLong(Long::longValue).sum(),
        counters.count("loyalty", "conflict"),
        counters.count("receipts", "conflict"),
        sent.conflictOriginalPoints(),
        credited);
  }

  private void deadLetters(List<DeadLetterPeek.Queue> queues) throws SQLException {
    long bad = sent.poisonMessages() + sent.invalidMessages();
    for (DeadLetterPeek.Queue queue : queues) {
      // onceonly.<consumer>.dlq on RabbitMQ, onceonly.<consumer>.dlt on Kafka
      String consumer = queue.name().replaceAll("^onceonly\\.|\\.dl[qt]$", "");
      long counted = counters.count(consumer, "dead_lettered");
      boolean reasons =
          queue.letters().size() == queue.depth()
              && queue.letters().stream().allMatch(l -> l.reason() != null);
      proof.check(
          queue.depth() == bad && counted == bad && reasons,
          "poison + invalid dead-lettered: %s holds %d (expected %d, counter %d), each with its"
              + " reason header",
          queue.name(),
          queue.depth(),
          bad,
          counted);
      for (DeadLetterPeek.Letter letter : queue.letters()) {
        proof.note("%s: %s [%s]", queue.name(), letter.reason(), letter.failure());
      }
    }
    long invalidClaims =
        db.single(PipelineDb.SQL_CLAIMS_OF_KEY, MessageKeys.orderCompleted(sent.invalidOrderId()));
    proof.check(
        invalidClaims == 0, "no claim left behind by the invalid event (%d)", invalidClaims);
  }

  private void redemptions() throws SQLException {
    Map<String, Long> debits = db.counts(PipelineDb.SQL_LEDGER_DEBITS);
    Map<String, Long> rejections = db.counts(PipelineDb.SQL_REJECTIONS);
    long refused = rejections.getOrDefault("loyalty/insufficient_balance", 0L);
    proof.check(
        debits.size() == sent.redemptionsCovered()
            && refused == sent.redemptionsUncovered()
            && rejections.size() == (refused > 0 ? 1 : 0)
            && counters.count("loyalty", "rejected") == sent.redemptionsUncovered(),
        "redemptions: %d debited (expected %d), %d rejected for insufficient balance (expected %d,"
            + " counter %d)",
        debits.size(),
        sent.redemptionsCovered(),
        refused,
        sent.redemptionsUncovered(),
        counters.count("loyalty", "rejected"));
  }

  private void profiles() throws SQLException {
    Map<String, Long> versions = db.counts(PipelineDb.SQL_PROFILE_VERSIONS);
    boolean newest = versions.equals(sent.expectedProfileVersions());
    proof.check(
        newest,
        "profiles: %d customers at their newest version after %d shuffled deliveries, newest"
            + " first for some (applied %d, older or equal ignored %d)",
        versions.size(),
        sent.profileMessages(),
        counters.count("profiles", "applied"),
        counters.count("profiles", "duplicate"));
  }
}
