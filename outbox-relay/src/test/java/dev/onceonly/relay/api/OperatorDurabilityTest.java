package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Operator changes commit durably although the relay's pool commits with {@code synchronous_commit
 * = off}: a cancel that was acknowledged must survive a database crash, or the row comes back and
 * the payout goes out. Each audit row records the commit mode of the transaction that wrote it and
 * its change.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class OperatorDurabilityTest {

  @Inject AgroalDataSource pool;

  private String prefix;

  @BeforeEach
  void prefix() {
    prefix = OutboxRows.uniquePrefix("durable");
  }

  @AfterEach
  void removeRows() {
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void theRelaysOwnCommitsAreAsynchronous() throws SQLException {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SHOW synchronous_commit")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("off");
    }
  }

  @Test
  void cancelRetryAndReplayCommitDurablyWithTheirAuditRows() {
    long lastAudit = lastAuditId();
    long cancelled = OutboxRows.insertAs(OutboxRows.receipt(prefix + "cancel"), "dead");
    long retried = OutboxRows.insertAs(OutboxRows.receipt(prefix + "retry"), "dead");
    OutboxRows.insertAs(OutboxRows.receipt(prefix + "replay"), "dead");
    String filter = "{\"idempotencyKey\":\"" + prefix + "replay\"";

    Api.admin().post("/outbox/" + cancelled + "/cancel").then().statusCode(200);
    Api.admin().post("/outbox/" + retried + "/retry").then().statusCode(200);
    Api.admin()
        .contentType("application/json")
        .body(filter + ",\"dryRun\":true}")
        .post("/outbox/replay")
        .then()
        .statusCode(200);
    Api.admin()
        .contentType("application/json")
        .body(filter + ",\"dryRun\":false}")
        .post("/outbox/replay")
        .then()
        .statusCode(200);

    List<String> modes =
        OutboxRows.strings(
            "SELECT action || ':' || commit_mode FROM outbox.outbox_audit WHERE id > ? ORDER BY id",
            lastAudit);
    assertThat(modes).containsExactly("cancel:on", "retry:on", "replay:on", "replay:on");
  }

  private static long lastAuditId() {
    return OutboxRows.longs("SELECT coalesce(max(id), 0) FROM outbox.outbox_audit").get(0);
  }
}
