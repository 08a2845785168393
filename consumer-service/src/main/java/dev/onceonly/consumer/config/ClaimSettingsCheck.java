package dev.onceonly.consumer.config;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses at start claim settings that would make messages fail instead of being decided
 * (ARCHITECTURE.md §9): the service stops with a message naming the settings to change, before any
 * message is taken, instead of failing every batch that meets them.
 *
 * <p>The one that needs thought: an event dated up to {@code max-future-skew} ahead is claimed in
 * its day's partition, and {@code claim.ClaimPartitions} creates partitions for {@code
 * partitions-ahead} days after today, once every {@code retention-interval}. Just after midnight
 * (UTC) and until the next run, partitions reach only {@code partitions-ahead} days after
 * yesterday, so the latest instant sure to have a partition is {@code partitions-ahead} days minus
 * one {@code retention-interval} from now. A skew beyond that lets a claim meet a missing
 * partition: a failed batch, retried alone, dead-lettered.
 */
@ApplicationScoped
public class ClaimSettingsCheck {

  private final ConsumerConfig.Claims claims;

  public ClaimSettingsCheck(ConsumerConfig config) {
    this.claims = config.claims();
  }

  /** Before the consumers are resumed (health.SchemaGate) and anything else starts. */
  void onStart(@Observes @Priority(1) StartupEvent event) {
    require(
        claims.retention(),
        claims.replayHorizon(),
        claims.maxFutureSkew(),
        claims.partitionsAhead(),
        claims.retentionInterval());
  }

  /** Throws naming every setting that is wrong and what to set; returns when all hold. */
  static void require(
      Duration retention,
      Duration replayHorizon,
      Duration maxFutureSkew,
      int partitionsAhead,
      Duration retentionInterval) {
    List<String> problems =
        problems(retention, replayHorizon, maxFutureSkew, partitionsAhead, retentionInterval);
    if (!problems.isEmpty()) {
      throw new IllegalStateException(
          "consumer-service refuses to start, its claim settings would fail messages: "
              + String.join("; ", problems));
    }
  }

  /** Every problem of the claim settings, each saying what to change; empty when they hold. */
  static List<String> problems(
      Duration retention,
      Duration replayHorizon,
      Duration maxFutureSkew,
      int partitionsAhead,
      Duration retentionInterval) {
    List<String> problems = new ArrayList<>();
    if (retention.toDays() < 1) {
      problems.add(
          "onceonly.claims.retention (CLAIM_RETENTION) must be at least 1d, is "
              + human(retention));
    }
    if (replayHorizon.isNegative()) {
      problems.add(
          "onceonly.claims.replay-horizon (CLAIM_REPLAY_HORIZON) must not be negative, is "
              + human(replayHorizon));
    }
    if (maxFutureSkew.isNegative()) {
      problems.add(
          "onceonly.claims.max-future-skew (CLAIM_MAX_FUTURE_SKEW) must not be negative, is "
              + human(maxFutureSkew));
    }
    if (partitionsAhead < 1) {
      problems.add("onceonly.claims.partitions-ahead must be at least 1, is " + partitionsAhead);
    }
    if (retentionInterval.isNegative() || retentionInterval.isZero()) {
      problems.add(
          "onceonly.claims.retention-interval must be positive, is " + human(retentionInterval));
    }
    if (partitionsAhead >= 1 && !retentionInterval.isNegative()) {
      Duration covered = Duration.ofDays(partitionsAhead).minus(retentionInterval);
      if (maxFutureSkew.compareTo(covered) > 0) {
        problems.add(
            "onceonly.claims.max-future-skew (CLAIM_MAX_FUTURE_SKEW) is "
                + human(maxFutureSkew)
                + " but onceonly.claims.partitions-ahead is "
                + partitionsAhead
                + " days, created every onceonly.claims.retention-interval ("
                + human(retentionInterval)
                + "): an event accepted that far ahead could claim in a day's partition not"
                + " created yet. Set max-future-skew to at most "
                + (covered.isNegative() ? "0s" : human(covered))
                + " (partitions-ahead days minus retention-interval), or raise partitions-ahead");
      }
    }
    return problems;
  }

  /** {@code 6d23h}, {@code 1h30m}, {@code 0s}: as the settings are written. */
  static String human(Duration d) {
    if (d.isNegative()) {
      return "-" + human(d.negated());
    }
    StringBuilder out = new StringBuilder();
    append(out, d.toDays(), "d");
    append(out, d.toHoursPart(), "h");
    append(out, d.toMinutesPart(), "m");
    append(out, d.toSecondsPart(), "s");
    if (d.toNanosPart() != 0) {
      append(out, d.toMillisPart(), "ms");
    }
    return out.isEmpty() ? "0s" : out.toString();
  }

  private static void append(StringBuilder out, long amount, String unit) {
    if (amount != 0) {
      out.append(amount).append(unit);
    }
  }
}
