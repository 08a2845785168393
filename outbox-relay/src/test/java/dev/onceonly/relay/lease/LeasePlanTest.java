package dev.onceonly.relay.lease;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A lease reads the outbox in proportion to what it leases, also when its statement was first run
 * on a small outbox. The JDBC driver prepares a statement on the server after 5 uses, and
 * PostgreSQL may then keep a generic plan for the connection's life: made over a handful of rows,
 * the per-key ordering check (a subplan per candidate row) became a sequential scan, so under the
 * next burst every lease read the whole table once per candidate. In the chaos suite that was 100
 * to 1,200 full scans of the outbox a second. The relay's pool plans every statement for the table
 * as it is ({@code plan_cache_mode=force_custom_plan}). Runs on a connection of that pool, in a
 * schema of its own, inside a transaction that is rolled back.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class LeasePlanTest {

  private static final int LIMIT = 32;
  private static final String LEASE =
      OutboxRepository.SQL_DUE.formatted(OutboxRepository.SQL_OLDEST_OF_ITS_KEY);

  @Inject AgroalDataSource pool;

  @Test
  void aLeaseStatementFirstRunOnASmallOutboxStaysCheapWhenItGrows() throws Exception {
    inScratchOutbox(
        "lease",
        5,
        (c, schema) -> {
          try (PreparedStatement lease = prepare(c, LEASE, schema)) {
            for (int i = 0; i < 12; i++) {
              run(c, lease);
            }
            try (Statement s = c.createStatement()) {
              s.execute(payouts(schema, 6_000));
            }
            long before = sequentialReads(c, schema);
            run(c, lease);
            long read = sequentialReads(c, schema) - before;

            assertThat(read)
                .as("outbox rows read sequentially by one lease of %d over 6,005 rows", LIMIT)
                .isLessThanOrEqualTo(10L * LIMIT);
          }
        });
  }

  /**
   * No statement of the pool is compiled to machine code. The lease's row count is a parameter the
   * planner cannot see, so it estimates a scan of every waiting row; with 150,000 waiting, the
   * estimate crossed PostgreSQL's {@code jit_above_cost} and every lease of 50 rows spent about 10
   * ms in the JIT compiler. Here the threshold is 0, so that any statement would qualify, and the
   * lease's plan must still show no JIT.
   */
  @Test
  void aLeaseIsNeverJitCompiled() throws Exception {
    inScratchOutbox(
        "jit",
        200,
        (c, schema) -> {
          try (Statement s = c.createStatement();
              ResultSet jit = s.executeQuery("SHOW jit")) {
            jit.next();
            assertThat(jit.getString(1)).as("jit on the relay's connections").isEqualTo("off");
          }
          try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL jit_above_cost = 0");
          }
          StringBuilder plan = new StringBuilder();
          try (PreparedStatement lease =
              prepare(c, "EXPLAIN (ANALYZE, FORMAT JSON) " + LEASE, schema)) {
            bindLease(c, lease);
            try (ResultSet rs = lease.executeQuery()) {
              while (rs.next()) {
                plan.append(rs.getString(1));
              }
            }
          }
          assertThat(plan.toString()).contains("\"Plan\"").doesNotContain("\"JIT\"");
        });
  }

  /**
   * The same for the statements without a lease's parameters: PostgreSQL keeps one plan for a
   * statement without parameters whatever {@code plan_cache_mode} says, and made over an empty
   * outbox, where the waiting rows start was looked up with a sequential scan of every row on each
   * later call (in the chaos suite, 5.4 ms a call over 6,000 rows). They bind the statuses they
   * look for, so that each call is planned for the table as it is.
   */
  @Test
  void whereTheWaitingRowsStartIsFoundByIndexWhenTheOutboxGrows() throws Exception {
    inScratchOutbox(
        "bounds",
        0,
        (c, schema) -> {
          try (PreparedStatement bounds = prepare(c, OutboxRepository.SQL_ID_BOUNDS, schema);
              PreparedStatement backlog = prepare(c, OutboxRepository.SQL_BACKLOG, schema)) {
            List<PreparedStatement> statements = List.of(bounds, backlog);
            for (int i = 0; i < 12; i++) {
              for (PreparedStatement statement : statements) {
                runWaiting(c, statement);
              }
            }
            try (Statement s = c.createStatement()) {
              s.execute(payouts(schema, 6_000));
              s.execute(
                  "UPDATE %s.outbox SET status = 'delivered', delivered_at = now()"
                      .formatted(schema));
              s.execute(payouts(schema, 5));
            }
            for (PreparedStatement statement : statements) {
              long before = sequentialReads(c, schema);
              runWaiting(c, statement);
              long read = sequentialReads(c, schema) - before;

              assertThat(read)
                  .as("outbox rows read sequentially over 6,005 rows, 5 waiting, by %s", statement)
                  .isLessThanOrEqualTo(100L);
            }
          }
        });
  }

  /** What a test does with its own outbox table, on a connection of the relay's pool. */
  @FunctionalInterface
  private interface ScratchBody {
    void run(Connection c, String schema) throws Exception;
  }

  /**
   * A copy of the outbox in a schema of its own holding {@code rows} pending payouts, analyzed,
   * inside a transaction that is rolled back afterwards.
   */
  private void inScratchOutbox(String prefix, int rows, ScratchBody body) throws Exception {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        String schema = OutboxRows.uniquePrefix(prefix).replaceAll("[^a-z0-9]", "_");
        try (Statement s = c.createStatement()) {
          s.execute("CREATE SCHEMA " + schema);
          s.execute("CREATE TABLE %s.outbox (LIKE outbox.outbox INCLUDING ALL)".formatted(schema));
          if (rows > 0) {
            s.execute(payouts(schema, rows));
          }
          s.execute("ANALYZE " + schema + ".outbox");
        }
        body.run(c, schema);
      } finally {
        c.rollback();
      }
    }
  }

  private static PreparedStatement prepare(Connection c, String sql, String schema)
      throws Exception {
    return c.prepareStatement(sql.replace("outbox.outbox", schema + ".outbox"));
  }

  private static void runWaiting(Connection c, PreparedStatement statement) throws Exception {
    statement.setArray(1, c.createArrayOf("text", OutboxRepository.WAITING.toArray()));
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        // the figures are not the point here: what reading them costs is
      }
    }
  }

  /** One destination's lease of {@link #LIMIT} rows from the first id up. */
  private static void bindLease(Connection c, PreparedStatement lease) throws Exception {
    lease.setArray(1, c.createArrayOf("text", new Object[] {"send_payout"}));
    lease.setArray(2, c.createArrayOf("int4", new Object[] {LIMIT}));
    lease.setLong(3, 0);
  }

  private static void run(Connection c, PreparedStatement lease) throws Exception {
    bindLease(c, lease);
    try (ResultSet rs = lease.executeQuery()) {
      while (rs.next()) {
        // leases nothing: the rows only have to be read
      }
    }
  }

  /** Rows read by sequential scans of the table in this transaction so far. */
  private static long sequentialReads(Connection c, String schema) throws Exception {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT coalesce(seq_tup_read, 0) FROM pg_stat_xact_user_tables"
                + " WHERE schemaname = ? AND relname = 'outbox'")) {
      ps.setString(1, schema);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** Pending payouts of 50 customers (ordering keys), as many as asked. */
  private static String payouts(String schema, int rows) {
    return """
        INSERT INTO %s.outbox (kind, payload, idempotency_key, ordering_key)
        SELECT 'send_payout', '{}', gen_random_uuid()::text, 'cust-' || (i %% 50)
          FROM generate_series(1, %d) i
        """
        .formatted(schema, rows);
  }
}
