package dev.onceonly.internal.health;

import dev.onceonly.internal.config.OnceOnlyConfig;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses at start claim settings that would make messages fail instead of being decided : the
 * service stops with a message naming the settings to change, before any message is taken, instead
 * of failing every batch that meets them.
 *
 * <p>The one that needs thought: an event dated up to {@code max-future-skew} ahead is claimed in
 * its day's partition, and {@code ClaimPartitions} creates partitions for {@code partitions-ahead}
 * days after today, once every {@code retention-interval}. Just after midnight (UTC) and until the
 * next run, partitions reach only {@code partitions-ahead} days after yesterday, so the latest
 * instant sure to have a partition is {@code partitions-ahead} days minus one {@code
 * retention-interval} from now. A skew beyond that lets a claim meet a missing partition: a failed
 * batch, retried alone, dead-lettered.
 */
@Singleton
public class ClaimSettingsCheck {

  private final OnceOnlyConfig.Claims claims;

  public ClaimSettingsCheck(OnceOnlyConfig config) {
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
          "the service refuses to start, its claim settings would fail messages: "
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
      problems.add("quarkus.onceonly.claims.retention must be at least 1d, is " + human(retention));
    }
    if (replayHorizon.isNegative()) {
      problems.add(
          "quarkus.onceonly.claims.replay-horizon must not be negative, is "
              + human(replayHorizon));
    }
    if (maxFutureSkew.isNegative()) {
      problems.add(
          "quarkus.onceonly.claims.max-future-skew must not be negative, is "
              + human(maxFutureSkew));
    }
    if (partitionsAhead < 1) {
      problems.add(
          "quarkus.onceonly.claims.partitions-ahead must be at least 1, is " + partitionsAhead);
    }
    if (retentionInterval.isNegative() || retentionInterval.isZero()) {
      problems.add(
          "quarkus.onceonly.claims.retention-interval must be positive, is "
              + human(retentionInterval));
    }
    if (partitionsAhead >= 1 && !retentionInterval.isNegative()) {
      Duration covered = Duration.ofDays(partitionsAhead).minus(retentionInterval);
      if (maxFutureSkew.compareTo(covered) > 0) {
        problems.add(
            "quarkus.onceonly.claims.max-future-skew is "
                + human(maxFutureSkew)
                + " but quarkus.onceonly.claims.partitions-ahead is "
                + partitionsAhead
                + " days, created every quarkus.onceonly.claims.retention-interval ("
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
