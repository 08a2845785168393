package dev.onceonly.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.consumer.Db;
import dev.onceonly.consumer.TestEvents;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Claim retention drops whole days: partitions beyond the 30-day window (and a day of margin) go
 * with their claims, the window's and the week ahead's are there, younger claims stay.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class ClaimPartitionsTest {

  @Inject ClaimPartitions partitions;
  @Inject ClaimPartitionRepository repository;
  @Inject Db db;

  @Test
  void daysBeyondTheWindowAreDroppedWholeAndTheWindowIsReady() throws Exception {
    Instant now = Instant.now();
    LocalDate today = now.atOffset(ZoneOffset.UTC).toLocalDate();
    LocalDate expired = today.minusDays(40);
    LocalDate kept = today.minusDays(29);
    repository.maintain(
        session -> {
          session.create(expired);
          session.create(kept);
          return null;
        });
    String run = TestEvents.unique("part");
    for (LocalDate day : List.of(expired, kept)) {
      db.execute(
          """
          INSERT INTO onceonly.processed_messages (consumer, message_key, payload_sha256, event_date)
          SELECT 'loyalty', '%s-' || g, repeat('a', 64), DATE '%s' FROM generate_series(1, 500) g
          """
              .formatted(run + day, day));
    }

    ClaimPartitions.Run result = partitions.run(now);

    assertThat(result.dropped()).contains(expired).doesNotContain(kept);
    assertThat(partitionDays())
        .doesNotContain(expired)
        .containsAll(ClaimPartitions.needed(today, 30, 7));
    assertThat(claims(run + expired)).isZero();
    assertThat(claims(run + kept)).isEqualTo(500);
    assertThat(partitions.run(now).created()).as("a second run has nothing to do").isEmpty();
  }

  @Test
  void theWindowAndItsMargin() {
    LocalDate today = LocalDate.parse("2026-11-30");
    assertThat(ClaimPartitions.needed(today, 30, 7))
        .startsWith(LocalDate.parse("2026-10-31"))
        .endsWith(LocalDate.parse("2026-12-07"))
        .hasSize(38);
    assertThat(ClaimPartitions.expired(LocalDate.parse("2026-10-30"), today, 30)).isFalse();
    assertThat(ClaimPartitions.expired(LocalDate.parse("2026-10-29"), today, 30)).isTrue();
  }

  @Test
  void onlyNamesThisServiceMakesReachDdl() {
    assertThat(ClaimPartitionRepository.tableOf(LocalDate.parse("2026-01-02")))
        .isEqualTo("processed_messages_p20260102");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ClaimPartitionRepository.checked("processed_messages; DROP TABLE x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private List<LocalDate> partitionDays() throws Exception {
    return repository
        .maintain(
            session ->
                session.partitions().stream().map(ClaimPartitionRepository.Partition::day).toList())
        .orElseThrow();
  }

  private long claims(String prefix) {
    return db.count(
        "SELECT count(*) FROM onceonly.processed_messages WHERE message_key LIKE ?", prefix + "-%");
  }
}
