package dev.onceonly.relay.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * The outbox is vacuumed as a queue table (migration V4): after a few thousand changed rows, not
 * after a fifth of the table, so that delivered rows' dead entries do not pile up in front of every
 * lease.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class QueueTableSettingsTest {

  @Test
  void theOutboxIsVacuumedAndAnalyzedAfterFiveThousandChangedRows() {
    assertThat(
            OutboxRows.strings(
                "SELECT unnest(reloptions) FROM pg_class WHERE oid = 'outbox.outbox'::regclass"))
        .contains(
            "autovacuum_vacuum_scale_factor=0",
            "autovacuum_vacuum_threshold=5000",
            "autovacuum_analyze_scale_factor=0",
            "autovacuum_analyze_threshold=5000");
  }
}
