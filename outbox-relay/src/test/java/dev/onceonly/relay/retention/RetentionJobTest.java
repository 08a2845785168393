package dev.onceonly.relay.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Retention removes delivered and cancelled rows (with their attempts) once they finished longer
 * ago than the window (7 days), and nothing else. The rows are of a kind this relay does not
 * deliver, so they stay exactly as written.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class RetentionJobTest {

  @Inject RetentionJob job;

  private final String kind = "retention_probe";

  @Test
  void removesOnlyRowsFinishedBeforeTheWindowTogetherWithTheirAttempts() {
    String prefix = OutboxRows.uniquePrefix("retention");
    long oldDelivered =
        insert(prefix + "1", "delivered", "delivered_at = now() - interval '8 days'");
    long recentDelivered =
        insert(prefix + "2", "delivered", "delivered_at = now() - interval '6 days'");
    long oldCancelled =
        insert(prefix + "3", "cancelled", "cancelled_at = now() - interval '8 days'");
    // Created long ago but cancelled yesterday: its window starts at the cancellation.
    long recentlyCancelled =
        insert(
            prefix + "4",
            "cancelled",
            "cancelled_at = now() - interval '1 day', created_at = now() - interval '30 days'");
    long oldPending = insert(prefix + "5", "pending", "created_at = now() - interval '30 days'");
    long oldDead = insert(prefix + "6", "dead", "created_at = now() - interval '30 days'");
    OutboxRows.longs(
        """
        INSERT INTO outbox.outbox_attempts (outbox_id, attempt, relay_id, started_at, outcome)
        VALUES (?, 1, 'relay-main', now() - interval '8 days', 'delivered')
        """,
        oldDelivered);

    RetentionJob.Removed removed = job.run(Instant.now());

    assertThat(removed.delivered()).isGreaterThanOrEqualTo(1);
    assertThat(removed.cancelled()).isGreaterThanOrEqualTo(1);
    assertThat(
            existing(
                List.of(
                    oldDelivered,
                    recentDelivered,
                    oldCancelled,
                    recentlyCancelled,
                    oldPending,
                    oldDead)))
        .containsExactlyInAnyOrder(recentDelivered, recentlyCancelled, oldPending, oldDead);
    assertThat(OutboxRows.attempts(oldDelivered)).isEmpty();
    OutboxRows.longs("DELETE FROM outbox.outbox WHERE kind = ?", kind);
  }

  @Test
  void outboxKeysOutliveTheirRowsAndGoAfterTheKeyWindow() {
    String prefix = OutboxRows.uniquePrefix("keys");
    long delivered =
        insert(prefix + "row", "delivered", "delivered_at = now() - interval '8 days'");
    OutboxRows.longs(
        """
        INSERT INTO outbox.outbox_keys (idempotency_key, created_at)
        VALUES (? || 'row', now() - interval '8 days'),
               (? || 'year-old', now() - interval '399 days'),
               (? || 'expired', now() - interval '401 days')
        """,
        prefix,
        prefix,
        prefix);

    RetentionJob.Removed removed = job.run(Instant.now());

    assertThat(existing(List.of(delivered))).as("the delivered row is gone").isEmpty();
    assertThat(removed.keys()).isGreaterThanOrEqualTo(1);
    assertThat(
            OutboxRows.strings(
                "SELECT idempotency_key FROM outbox.outbox_keys WHERE starts_with(idempotency_key, ?)",
                prefix))
        .as("keys stay taken for the key window (400 days), long after their rows")
        .containsExactlyInAnyOrder(prefix + "row", prefix + "year-old");
    OutboxRows.longs(
        "DELETE FROM outbox.outbox_keys WHERE starts_with(idempotency_key, ?)", prefix);
  }

  @Test
  void theKeyWindowMayNotBeShorterThanTheRowWindow() {
    Instant now = Instant.parse("2026-05-10T00:00:00Z");
    assertThat(RetentionJob.keyCutoff(now, Duration.ofDays(7), Duration.ofDays(400)))
        .isEqualTo(Instant.parse("2025-04-05T00:00:00Z"));
    assertThatThrownBy(() -> RetentionJob.keyCutoff(now, Duration.ofDays(7), Duration.ofDays(6)))
        .hasMessageContaining("relay.retention.key-window");
  }

  @Test
  void theWindowMustBePositive() {
    Instant now = Instant.parse("2026-05-10T00:00:00Z");
    assertThat(RetentionJob.cutoff(now, Duration.ofDays(7)))
        .isEqualTo(Instant.parse("2026-05-03T00:00:00Z"));
    assertThatThrownBy(() -> RetentionJob.cutoff(now, Duration.ZERO))
        .hasMessageContaining("relay.retention.window must be > 0");
  }

  private long insert(String key, String status, String set) {
    long id = OutboxRows.insertAs(new NewRow(kind, "{}", key, null), status);
    OutboxRows.longs("UPDATE outbox.outbox SET " + set + " WHERE id = ?", id);
    return id;
  }

  private static List<Long> existing(List<Long> ids) {
    return OutboxRows.longs(
        "SELECT id FROM outbox.outbox WHERE id = ANY (?::bigint[])",
        ids.stream()
            .map(String::valueOf)
            .reduce((a, b) -> a + "," + b)
            .map(s -> "{" + s + "}")
            .orElse("{}"));
  }
}
