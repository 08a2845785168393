package dev.onceonly.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.consumer.claim.ClaimRetention;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Claims older than the window go, in batches, until none are left; younger ones stay. */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class ClaimRetentionTest {

  @Inject ClaimRetention retention;
  @Inject Db db;

  @Test
  void claimsOlderThanTheWindowAreDeletedInBatchesUntilNoneAreLeft() {
    String run = TestEvents.unique("ret");
    db.execute(
        """
        INSERT INTO loyalty.processed_messages
               (consumer, message_key, payload_sha256, event_date, processed_at)
        SELECT 'loyalty', '%1$s-old-' || g, repeat('a', 64), current_date - 40,
               now() - interval '31 days'
          FROM generate_series(1, 2500) g;
        INSERT INTO loyalty.processed_messages
               (consumer, message_key, payload_sha256, event_date, processed_at)
        SELECT 'loyalty', '%1$s-new-' || g, repeat('a', 64), current_date,
               now() - interval '29 days'
          FROM generate_series(1, 10) g;
        """
            .formatted(run));

    long removed = retention.purge(Instant.now());

    assertThat(removed).isGreaterThanOrEqualTo(2500);
    assertThat(
            db.count(
                "SELECT count(*) FROM loyalty.processed_messages WHERE message_key LIKE ?",
                run + "-old-%"))
        .isZero();
    assertThat(
            db.count(
                "SELECT count(*) FROM loyalty.processed_messages WHERE message_key LIKE ?",
                run + "-new-%"))
        .isEqualTo(10);
  }

  @Test
  void cutoffIsNowMinusTheWindow() {
    Instant now = Instant.parse("2026-11-30T12:00:00Z");
    assertThat(ClaimRetention.cutoff(now, Duration.ofDays(30)))
        .isEqualTo(Instant.parse("2026-10-31T12:00:00Z"));
  }
}
