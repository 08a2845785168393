package dev.onceonly.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * A claim reads its day's partition by key, also when its statement was last planned while that
 * partition was empty. The JDBC driver prepares a statement on the server after 5 uses, and
 * PostgreSQL may then keep one generic plan until something invalidates it (an ANALYZE, a new
 * partition). Made while a day's partition was empty (a new day; in the chaos suite, after the
 * tables were emptied), that plan looked a claim's fingerprint up with a sequential scan of the
 * partition, once per message, while the partition grew: scenario 7 measured 8.8 ms a batch and
 * claims slowing to a third of their speed over a run. The consumer's pool runs with {@code
 * enable_seqscan=off}: every statement it runs reads by key. Runs on a connection of that pool, in
 * a schema of its own, inside a transaction that is rolled back.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class ClaimPlanTest {

  private static final LocalDate FIRST_DAY = LocalDate.of(2026, 11, 24);
  private static final int DAYS = 7;
  private static final int BATCH = 14;

  @Inject AgroalDataSource pool;

  @Test
  void aClaimPlannedOnAnEmptyPartitionReadsByKeyWhenThePartitionGrows() throws Exception {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        String schema = "claim_plan_" + Long.toHexString(System.nanoTime());
        try (Statement s = c.createStatement()) {
          s.execute("CREATE SCHEMA " + schema);
          s.execute(
              "CREATE TABLE %s.processed_messages (LIKE onceonly.processed_messages INCLUDING ALL)"
                      .formatted(schema)
                  + " PARTITION BY RANGE (event_date)");
          for (int d = 0; d < DAYS; d++) {
            LocalDate day = FIRST_DAY.plusDays(d);
            s.execute(
                "CREATE TABLE %s.p%d PARTITION OF %s.processed_messages FOR VALUES FROM ('%s') TO ('%s')"
                    .formatted(schema, d, schema, day, day.plusDays(1)));
          }
          s.execute("ANALYZE " + schema + ".processed_messages");
        }
        String sql = ClaimRepository.SQL_CLAIM_ALL.replace("{schema}.", schema + ".");
        try (PreparedStatement claim = c.prepareStatement(sql)) {
          for (int i = 0; i < 12; i++) {
            run(c, claim, "warm-" + i);
          }
          try (Statement s = c.createStatement()) {
            // Emptied and analyzed, as a new day's partition is: the next run plans for it.
            s.execute("TRUNCATE " + schema + ".processed_messages");
            s.execute("ANALYZE " + schema + ".processed_messages");
          }
          run(c, claim, "empty");
          try (Statement s = c.createStatement()) {
            s.execute(
                """
                INSERT INTO %s.processed_messages (consumer, message_key, payload_sha256, event_date)
                SELECT 'loyalty', 'grown-' || g, repeat('a', 64), DATE '%s' + g %% %d
                  FROM generate_series(1, 14000) g
                """
                    .formatted(schema, FIRST_DAY, DAYS));
          }
          long before = sequentialReads(c, schema);
          run(c, claim, "measured");
          long read = sequentialReads(c, schema) - before;

          assertThat(read)
              .as("claim rows read sequentially by one batch of %d claims over 14,000", BATCH)
              .isLessThanOrEqualTo(10L * BATCH);
        }
      } finally {
        c.rollback();
      }
    }
  }

  /** One batch of new claims, two a day. */
  private static void run(Connection c, PreparedStatement claim, String prefix) throws Exception {
    String[] consumers = new String[BATCH];
    String[] keys = new String[BATCH];
    String[] sha = new String[BATCH];
    String[] days = new String[BATCH];
    for (int i = 0; i < BATCH; i++) {
      consumers[i] = "loyalty";
      keys[i] = prefix + "-" + i;
      sha[i] = "b".repeat(64);
      days[i] = FIRST_DAY.plusDays(i % DAYS).toString();
    }
    claim.setArray(1, c.createArrayOf("text", consumers));
    claim.setArray(2, c.createArrayOf("text", keys));
    claim.setArray(3, c.createArrayOf("text", sha));
    claim.setArray(4, c.createArrayOf("text", days));
    try (ResultSet rs = claim.executeQuery()) {
      while (rs.next()) {
        assertThat(rs.getBoolean(1)).as("%s claimed now", prefix).isTrue();
      }
    }
  }

  /** Rows read by sequential scans of the scratch partitions in this transaction so far. */
  private static long sequentialReads(Connection c, String schema) throws Exception {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_xact_user_tables"
                + " WHERE schemaname = ?")) {
      ps.setString(1, schema);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }
}
