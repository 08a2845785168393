package dev.onceonly.chaos;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How full the consumers' claim transactions were in scenario 7's clean and poisoned stretches:
 * first claims per transaction, read afterwards from the claims themselves. A claim's {@code
 * processed_at} is its transaction's start ({@code now()}), the same for every claim of one group
 * commit, so one consumer's claims with the same timestamp are one transaction. (Two consumer
 * instances starting a transaction for the same consumer in the same microsecond would count as
 * one: rare, and it errs towards fuller transactions in both kinds alike.) Duplicates find their
 * claim and leave no row, so the figure counts first claims only; every stretch holds the same mix
 * of first claims and copies ({@link PoisonBlocks}), so it compares like with like.
 *
 * <p>Fewer first claims per transaction means more commits for the same healthy work, which the
 * database and the committers pay for: the part of the poison's cost that falls on processes that
 * never see an invalid message.
 */
final class ClaimBatches {

  /** One claim row: which consumer claimed which key, in the transaction that began {@code at}. */
  record Claim(String consumer, String key, Instant at) {}

  /** One claim transaction: its consumer and its start. */
  private record Transaction(String consumer, Instant at) {}

  /** First claims and the transactions that held them, per kind of stretch. */
  record Split(
      long cleanClaims, long cleanTransactions, long poisonedClaims, long poisonedTransactions) {

    static final Split NONE = new Split(0, 0, 0, 0);

    Split plus(Split other) {
      return new Split(
          cleanClaims + other.cleanClaims,
          cleanTransactions + other.cleanTransactions,
          poisonedClaims + other.poisonedClaims,
          poisonedTransactions + other.poisonedTransactions);
    }

    double cleanPerTransaction() {
      return per(cleanClaims, cleanTransactions);
    }

    double poisonedPerTransaction() {
      return per(poisonedClaims, poisonedTransactions);
    }

    /** How many more commits per first claim the poisoned stretches took, as a share. */
    double moreCommits() {
      return cleanPerTransaction() / poisonedPerTransaction() - 1;
    }

    String describe() {
      return String.format(
          "claim transactions: %.2f first claims each in clean stretches (%d in %d), %.2f in"
              + " poisoned ones (%d in %d); with the poison the consumers committed %.0f %% %s"
              + " often for the same first claims",
          cleanPerTransaction(),
          cleanClaims,
          cleanTransactions,
          poisonedPerTransaction(),
          poisonedClaims,
          poisonedTransactions,
          Math.abs(100 * moreCommits()),
          moreCommits() >= 0 ? "more" : "less");
    }

    private static double per(long claims, long transactions) {
      return transactions == 0 ? Double.NaN : claims / (double) transactions;
    }
  }

  private ClaimBatches() {}

  /**
   * Each key's latest claim, by any consumer: when the stretch that holds it was done with it, on
   * the database's clock ({@link PoisonBlocks#timed}).
   */
  static Map<String, Instant> latest(Collection<Claim> claims) {
    Map<String, Instant> latest = new HashMap<>();
    for (Claim claim : claims) {
      latest.merge(claim.key(), claim.at(), (a, b) -> a.isAfter(b) ? a : b);
    }
    return latest;
  }

  /**
   * The claims of the timed stretches (all of {@code blocks} but the first and last), by kind. A
   * transaction with claims in stretches of both kinds (at a boundary) counts once in each; claims
   * of keys in no timed stretch are left out.
   */
  static Split of(List<PoisonBlocks.Block> blocks, Collection<Claim> claims) {
    Map<String, Boolean> poisoned = new HashMap<>();
    for (int i = 1; i < blocks.size() - 1; i++) {
      for (String key : blocks.get(i).keys()) {
        poisoned.put(key, blocks.get(i).poisoned());
      }
    }
    long cleanClaims = 0;
    long poisonedClaims = 0;
    Set<Transaction> cleanTransactions = new HashSet<>();
    Set<Transaction> poisonedTransactions = new HashSet<>();
    for (Claim claim : claims) {
      Boolean kind = poisoned.get(claim.key());
      if (kind == null) {
        continue;
      }
      Transaction transaction = new Transaction(claim.consumer(), claim.at());
      if (kind) {
        poisonedClaims++;
        poisonedTransactions.add(transaction);
      } else {
        cleanClaims++;
        cleanTransactions.add(transaction);
      }
    }
    return new Split(
        cleanClaims, cleanTransactions.size(), poisonedClaims, poisonedTransactions.size());
  }
}
