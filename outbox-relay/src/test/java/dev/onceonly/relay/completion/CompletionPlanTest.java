package dev.onceonly.relay.completion;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A completion batch reads {@code outbox.outbox} by primary key, in proportion to the batch, never
 * in proportion to the table. Joined to the unnested input alone, PostgreSQL planned a scan of the
 * whole outbox per batch (the read that checks a row still exists) and of every waiting row (the
 * fenced update): in the chaos suite, a plan cached while the statistics said "few rows" read up to
 * 8 million tuples a second under a backlog and slowed both services. Measured here with EXPLAIN
 * ANALYZE, inside a transaction that is rolled back, so the running relay never sees these rows.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class CompletionPlanTest {

  private static final int TABLE_ROWS = 20_000;
  private static final int BATCH = 50;
  private static final String OWNER = "relay-plan-test";

  @Test
  void aBatchReadsTheOutboxByIdWhateverThePlanCache() throws Exception {
    for (String mode : List.of("force_custom_plan", "force_generic_plan")) {
      long read = rowsReadFromOutbox(mode);
      assertThat(read)
          .as("outbox rows read by one batch of %d completions (%s)", BATCH, mode)
          .isLessThanOrEqualTo(10L * BATCH);
    }
  }

  /**
   * Builds, in a schema of its own, the state the chaos suite met: statistics taken while every row
   * was delivered, then the table emptied (PostgreSQL keeps the column statistics and forgets the
   * size) and filled again with a backlog. Runs one batch there and counts what it read.
   */
  private static long rowsReadFromOutbox(String planCacheMode) throws Exception {
    try (Connection c = OutboxRows.connect()) {
      c.setAutoCommit(false);
      try {
        String schema = OutboxRows.uniquePrefix("plan").replaceAll("[^a-z0-9]", "_");
        try (Statement s = c.createStatement()) {
          s.execute("SET LOCAL plan_cache_mode = " + planCacheMode);
          s.execute("CREATE SCHEMA " + schema);
          s.execute("CREATE TABLE %s.outbox (LIKE outbox.outbox INCLUDING ALL)".formatted(schema));
          s.execute(
              "CREATE TABLE %s.outbox_attempts (LIKE outbox.outbox_attempts INCLUDING ALL)"
                  .formatted(schema));
          s.execute(insert(schema, "delivered", TABLE_ROWS));
          s.execute("ANALYZE " + schema + ".outbox");
          s.execute("TRUNCATE " + schema + ".outbox");
          s.execute(insert(schema, "delivered", TABLE_ROWS / 2));
          s.execute(insert(schema, "pending", TABLE_ROWS / 4));
          s.execute(insert(schema, "in_flight", BATCH));
        }
        List<Long> ids = new ArrayList<>();
        List<Long> leaseEnds = new ArrayList<>();
        try (Statement s = c.createStatement();
            ResultSet rs =
                s.executeQuery(
                    ("SELECT id, (extract(epoch FROM lease_until) * 1000000)::bigint"
                            + " FROM %s.outbox WHERE status = 'in_flight'")
                        .formatted(schema))) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
            leaseEnds.add(rs.getLong(2));
          }
        }
        String sql = CompletionRepository.SQL_COMPLETE.replace("outbox.outbox", schema + ".outbox");
        try (PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)) {
          bind(c, ps, ids, leaseEnds);
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
            JsonNode plan = new ObjectMapper().readTree(rs.getString(1)).get(0).get("Plan");
            return rowsRead(plan, "outbox");
          }
        }
      } finally {
        c.rollback();
      }
    }
  }

  private static String insert(String schema, String status, int rows) {
    return """
        INSERT INTO %s.outbox
               (kind, payload, idempotency_key, status, lease_owner, lease_until, attempts)
        SELECT 'send_receipt', '{}', gen_random_uuid()::text, '%s',
               CASE WHEN '%2$s' = 'in_flight' THEN '%s' END,
               CASE WHEN '%2$s' = 'in_flight' THEN now() + interval '1 minute' END, 1
          FROM generate_series(1, %d)
        """
        .formatted(schema, status, OWNER, rows);
  }

  /** One delivered completion per id and its lease's end, in the statement's parameters. */
  private static void bind(Connection c, PreparedStatement ps, List<Long> ids, List<Long> leaseEnds)
      throws Exception {
    int n = ids.size();
    Object[] attempts = new Object[n];
    Object[] owners = new Object[n];
    Object[] outcomes = new Object[n];
    Object[] statuses = new Object[n];
    Object[] zeros = new Object[n];
    Object[] nulls = new Object[n];
    Object[] counted = new Object[n];
    Object[] destinations = new Object[n];
    for (int i = 0; i < n; i++) {
      counted[i] = true;
      destinations[i] = "send_receipt";
      attempts[i] = 1;
      owners[i] = OWNER;
      outcomes[i] = "delivered";
      statuses[i] = 200;
      zeros[i] = 0L;
    }
    Array idArray = c.createArrayOf("int8", ids.toArray());
    Map<Integer, Array> arrays =
        Map.ofEntries(
            Map.entry(1, idArray),
            Map.entry(2, c.createArrayOf("int4", attempts)),
            Map.entry(3, c.createArrayOf("text", owners)),
            Map.entry(4, c.createArrayOf("text", outcomes)),
            Map.entry(5, c.createArrayOf("int4", statuses)),
            Map.entry(6, c.createArrayOf("int8", zeros)),
            Map.entry(7, c.createArrayOf("text", nulls)),
            Map.entry(8, c.createArrayOf("text", nulls)),
            Map.entry(9, c.createArrayOf("int8", zeros)),
            Map.entry(10, c.createArrayOf("int8", zeros)),
            Map.entry(11, c.createArrayOf("text", nulls)),
            Map.entry(12, c.createArrayOf("bool", counted)),
            Map.entry(13, c.createArrayOf("text", destinations)),
            Map.entry(14, c.createArrayOf("int8", leaseEnds.toArray())),
            Map.entry(15, idArray),
            Map.entry(16, c.createArrayOf("text", destinations)),
            Map.entry(17, idArray));
    for (var e : arrays.entrySet()) {
      ps.setArray(e.getKey(), e.getValue());
    }
  }

  /** Rows every scan of {@code relation} returned or filtered out, over all its loops. */
  private static long rowsRead(JsonNode node, String relation) {
    long read = 0;
    if (relation.equals(node.path("Relation Name").asText())
        && node.path("Node Type").asText().contains("Scan")) {
      long loops = node.path("Actual Loops").asLong(1);
      read +=
          loops
              * (node.path("Actual Rows").asLong()
                  + node.path("Rows Removed by Filter").asLong()
                  + node.path("Rows Removed by Index Recheck").asLong());
    }
    for (JsonNode child : node.path("Plans")) {
      read += rowsRead(child, relation);
    }
    return read;
  }
}
