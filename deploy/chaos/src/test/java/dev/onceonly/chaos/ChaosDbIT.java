package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Emptying the tables between scenarios while the services still run: a service transaction that
 * reads a table the TRUNCATE has not locked yet, and then one it has, closes a lock cycle.
 * PostgreSQL aborts the TRUNCATE (it waited longest); the suite must run it again, not fail the
 * scenario (a full run of scenario 7 once failed this way before any message was sent).
 */
class ChaosDbIT {

  private static final int PORT = ChaosSuite.DEFAULT_PORT_BASE + 440;
  private static PrivatePostgres postgres;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(PrivatePostgres.installed(), "PostgreSQL binaries not installed");
    postgres = PrivatePostgres.start(PORT);
    try (Connection c = postgres.connect(PrivatePostgres.DATABASE);
        Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA loyalty");
      s.execute("CREATE SCHEMA onceonly");
      s.execute("CREATE SCHEMA outbox");
      for (String table :
          new String[] {
            "onceonly.processed_messages",
            "onceonly.message_conflicts",
            "onceonly.rejections",
            "loyalty.balances",
            "loyalty.point_ledger",
            "loyalty.customer_profiles",
            "outbox.outbox_attempts",
            "outbox.outbox",
            "outbox.outbox_keys",
            "outbox.outbox_audit"
          }) {
        s.execute("CREATE TABLE " + table + " (id bigint)");
        s.execute("INSERT INTO " + table + " VALUES (1)");
      }
      s.execute("ALTER SYSTEM SET deadlock_timeout = '200ms'");
      s.execute("SELECT pg_reload_conf()");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void emptyRunsAgainWhenPostgresAbortsItForADeadlock() throws Exception {
    ChaosDb db = new ChaosDb(postgres.jdbcUrl());
    try (Connection service = postgres.connect(PrivatePostgres.DATABASE);
        Statement s = service.createStatement()) {
      service.setAutoCommit(false);
      // The service's transaction holds the last table of the TRUNCATE ...
      s.executeQuery("SELECT count(*) FROM outbox.outbox_audit").close();
      CompletableFuture<Void> emptying =
          CompletableFuture.runAsync(
              () -> {
                try {
                  db.empty();
                } catch (java.sql.SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      awaitTruncateWaiting(service);
      // ... and now asks for the first, which the waiting TRUNCATE holds: a cycle. PostgreSQL
      // aborts the TRUNCATE, the service's read goes through and its transaction commits.
      s.executeQuery("SELECT count(*) FROM onceonly.processed_messages").close();
      service.commit();

      emptying.get(30, TimeUnit.SECONDS);
    }
    try (Connection c = postgres.connect(PrivatePostgres.DATABASE);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT (SELECT count(*) FROM onceonly.processed_messages)"
                    + " + (SELECT count(*) FROM outbox.outbox_audit)")) {
      rs.next();
      assertThat(rs.getLong(1)).as("rows left after empty()").isZero();
    }
  }

  /** Until another backend waits for a lock: the TRUNCATE, stopped at outbox.outbox_audit. */
  private static void awaitTruncateWaiting(Connection service) throws Exception {
    try (Connection watcher = postgres.connect(PrivatePostgres.DATABASE);
        Statement s = watcher.createStatement()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (System.nanoTime() < deadline) {
        try (ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation ="
                    + " 'outbox.outbox_audit'::regclass")) {
          rs.next();
          if (rs.getLong(1) > 0) {
            return;
          }
        }
        Thread.onSpinWait();
      }
      throw new AssertionError("the TRUNCATE never waited for outbox.outbox_audit");
    }
  }
}
