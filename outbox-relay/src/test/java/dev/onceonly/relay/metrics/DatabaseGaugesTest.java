package dev.onceonly.relay.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.metrics.DatabaseStatsRepository.TableStats;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class DatabaseGaugesTest {

  @Inject DatabaseGauges gauges;
  @Inject DatabaseStatsRepository repository;
  @Inject MeterRegistry registry;

  @Test
  void aTransactionLeftOpenShowsAsTheOldestTransactionAge() throws Exception {
    try (Connection idle = OutboxRows.connect()) {
      idle.setAutoCommit(false);
      try (Statement statement = idle.createStatement()) {
        statement.execute("SELECT txid_current()"); // holds an xid, like a forgotten session
      }
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(15))
          .until(
              () -> {
                gauges.refresh();
                return gauge("onceonly.db.oldest.transaction.age.seconds") >= 2;
              });
      idle.rollback();
    }
    gauges.refresh();
    assertThat(gauge("onceonly.db.oldest.transaction.age.seconds")).isLessThan(2);
  }

  @Test
  void outboxTablesReportTheirSizeAndDeadTuples() {
    OutboxRows.insert(OutboxRows.receipt(OutboxRows.uniquePrefix("gauges") + "r"));

    gauges.refresh();

    assertThat(
            registry.get("onceonly.db.table.bytes").tag("table", "outbox.outbox").gauge().value())
        .isPositive();
    assertThat(
            registry.get("onceonly.db.index.bytes").tag("table", "outbox.outbox").gauge().value())
        .isPositive();
    assertThat(registry.get("onceonly.db.partitions").tag("table", "outbox.outbox").gauge().value())
        .isEqualTo(1.0);
    assertThat(
            registry.find("onceonly.db.table.bytes").tag("table", "loyalty.point_ledger").gauge())
        .as("a table this database does not have is left out")
        .isNull();
  }

  @Test
  void rowsDeletedFromAWatchedTableShowAsDeadTuplesUntilVacuumed() throws Exception {
    // outbox_keys: only the writer inserts and only key retention (after 400 days) deletes, so
    // nothing but this test makes dead tuples there; autovacuum stays off for it meanwhile.
    String table = "outbox.outbox_keys";
    String prefix = OutboxRows.uniquePrefix("dead-tuples");
    int rows = 500;
    try (Connection c = OutboxRows.connect();
        Statement s = c.createStatement()) {
      s.execute("ALTER TABLE " + table + " SET (autovacuum_enabled = false)");
    }
    try {
      gauges.refresh();
      double before = deadTuples(table);
      // One session inserts and deletes; it ends, so its statistics reach the collector at once.
      try (Connection c = OutboxRows.connect();
          Statement s = c.createStatement()) {
        s.execute(
            "INSERT INTO "
                + table
                + " (idempotency_key) SELECT '"
                + prefix
                + "' || n FROM generate_series(1, "
                + rows
                + ") n");
        assertThat(
                s.executeUpdate(
                    "DELETE FROM " + table + " WHERE idempotency_key LIKE '" + prefix + "%'"))
            .isEqualTo(rows);
      }

      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(15))
          .until(
              () -> {
                gauges.refresh();
                return deadTuples(table) >= before + rows;
              });

      try (Connection c = OutboxRows.connect();
          Statement s = c.createStatement()) {
        s.execute("VACUUM " + table);
      }
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(15))
          .until(
              () -> {
                gauges.refresh();
                return deadTuples(table) < rows;
              });
    } finally {
      try (Connection c = OutboxRows.connect();
          Statement s = c.createStatement()) {
        s.execute("ALTER TABLE " + table + " RESET (autovacuum_enabled)");
      }
    }
  }

  @Test
  void aPartitionedTableCountsItsPartitionsAndTheAgeOfTheOldest() throws Exception {
    try (Connection c = OutboxRows.connect();
        Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS gauge_test CASCADE");
      s.execute("CREATE SCHEMA gauge_test");
      s.execute("CREATE TABLE gauge_test.claims (d date NOT NULL, k text) PARTITION BY RANGE (d)");
      s.execute(
          "CREATE TABLE gauge_test.claims_old PARTITION OF gauge_test.claims"
              + " FOR VALUES FROM ((now() AT TIME ZONE 'UTC')::date - 40)"
              + " TO ((now() AT TIME ZONE 'UTC')::date - 39)");
      s.execute(
          "CREATE TABLE gauge_test.claims_today PARTITION OF gauge_test.claims"
              + " FOR VALUES FROM ((now() AT TIME ZONE 'UTC')::date)"
              + " TO ((now() AT TIME ZONE 'UTC')::date + 1)");
      s.execute(
          "INSERT INTO gauge_test.claims SELECT current_date, 'k' FROM generate_series(1, 100)");
    }
    try {
      List<TableStats> stats = repository.tables(List.of("gauge_test.claims"));

      assertThat(stats).hasSize(1);
      assertThat(stats.get(0).partitions()).isEqualTo(2);
      assertThat(stats.get(0).oldestPartitionAgeDays()).hasValue(40);
      assertThat(stats.get(0).newestPartitionAheadDays()).hasValue(0);
      assertThat(stats.get(0).tableBytes()).isPositive();
    } finally {
      try (Connection c = OutboxRows.connect();
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA gauge_test CASCADE");
      }
    }
  }

  private double deadTuples(String table) {
    return registry.get("onceonly.db.dead.tuples").tag("table", table).gauge().value();
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }
}
