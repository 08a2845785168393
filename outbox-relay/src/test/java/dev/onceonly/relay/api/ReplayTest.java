package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import dev.onceonly.relay.operations.OutboxChangeRepository;
import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code POST /outbox/replay}: filtered, limited, paced, one at a time, audited. */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class ReplayTest {

  /** {@code %test.relay.operations.replay-rate-per-second=200}: one row every 5 ms. */
  private static final long STEP_MICROS = 5_000;

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void dryRunReportsWhatWouldMoveAndChangesNothingButTheAudit() {
    String prefix = OutboxRows.uniquePrefix("dry");
    Instant start = OutboxRows.databaseNow();
    List<Long> dead = insertDead(prefix, "send_receipt", 3);
    long audit = OutboxRows.auditRows();

    Api.admin()
        .contentType("application/json")
        .body(filter("send_receipt", start, ",\"dryRun\":true"))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("matched", is(3))
        .body("selected", is(3))
        .body("changed", is(0))
        .body("dryRun", is(true))
        .body("ids", is(ints(dead)));

    assertThat(dead).allMatch(id -> OutboxRows.status(id).equals("dead"));
    assertThat(stub.calls(k -> k.startsWith(prefix))).isEmpty();
    assertThat(OutboxRows.auditRows()).isEqualTo(audit + 1);
    Api.viewer()
        .get("/outbox/audit?size=1")
        .then()
        .body("items[0].action", is("replay"))
        .body("items[0].dryRun", is(true))
        .body("items[0].affectedCount", is(3))
        .body("items[0].filter.destination", is("send_receipt"));
  }

  @Test
  void replayMovesExactlyTheFilteredDeadRowsPacedAndAudited() {
    String prefix = OutboxRows.uniquePrefix("replay");
    long olderDead = OutboxRows.insertAs(OutboxRows.receipt(prefix + "older"), "dead");
    Instant start = OutboxRows.databaseNow();
    List<Long> wanted = insertDead(prefix + "r", "send_receipt", 3);
    List<Long> otherKind = insertDead(prefix + "p", "issue_payout", 1);
    long notDead = OutboxRows.insertAs(OutboxRows.receipt(prefix + "later"), "pending", 3600);

    JsonPath result =
        Api.admin()
            .contentType("application/json")
            .body(filter("send_receipt", start, ""))
            .post("/outbox/replay")
            .then()
            .statusCode(200)
            .body("matched", is(3))
            .body("changed", is(3))
            .body("dryRun", is(false))
            .body("ids", is(ints(wanted)))
            .extract()
            .jsonPath();

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> wanted.stream().allMatch(id -> OutboxRows.status(id).equals("delivered")));
    assertThat(OutboxRows.status(olderDead)).isEqualTo("dead");
    assertThat(OutboxRows.status(otherKind.get(0))).isEqualTo("dead");
    assertThat(OutboxRows.status(notDead)).isEqualTo("pending");
    assertThat(stub.calls(k -> k.startsWith(prefix))).hasSize(3);

    // Paced: each replayed row became due one step after the previous one.
    List<Instant> due = wanted.stream().map(id -> OutboxRows.row(id).availableAt()).toList();
    assertThat(ChronoUnit.MICROS.between(due.get(0), due.get(1))).isEqualTo(STEP_MICROS);
    assertThat(ChronoUnit.MICROS.between(due.get(1), due.get(2))).isEqualTo(STEP_MICROS);
    assertThat(Instant.parse(result.getString("scheduledUntil"))).isEqualTo(due.get(2));

    Api.viewer()
        .get("/outbox/audit?size=1")
        .then()
        .body("items[0].action", is("replay"))
        .body("items[0].actor", is(Api.ADMIN))
        .body("items[0].dryRun", is(false))
        .body("items[0].affectedCount", is(3))
        .body("items[0].filter.status", is("dead"))
        .body("items[0].filter.destination", is("send_receipt"))
        .body("items[0].filter.createdAfter", is(start.toString()))
        .body("items[0].scheduledUntil", is(result.getString("scheduledUntil")));
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void limitTakesTheOldestMatchingRowsFirst() {
    String prefix = OutboxRows.uniquePrefix("limit");
    Instant start = OutboxRows.databaseNow();
    List<Long> dead = insertDead(prefix, "issue_payout", 4);

    Api.admin()
        .contentType("application/json")
        .body(filter("issue_payout", start, ",\"limit\":2"))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("matched", is(4))
        .body("changed", is(2))
        .body("ids", is(ints(dead.subList(0, 2))));

    assertThat(OutboxRows.status(dead.get(2))).isEqualTo("dead");
    assertThat(OutboxRows.status(dead.get(3))).isEqualTo("dead");
    assertThat(OutboxRows.status(dead.get(0))).isNotEqualTo("dead");
  }

  @Test
  void aConfirmWithTheDryRunsIdsReplaysExactlyThoseRowsAndNoRowThatDiedSince() {
    String prefix = OutboxRows.uniquePrefix("exact");
    Instant start = OutboxRows.databaseNow();
    // Oldest of all, still on its way during the dry run; it dies before the confirm.
    long diesLater = OutboxRows.insertAs(OutboxRows.receipt(prefix + "late"), "pending", 3600);
    List<Long> listed = insertDead(prefix, "send_receipt", 2);

    List<Integer> dryRunIds =
        Api.admin()
            .contentType("application/json")
            .body(filter("send_receipt", start, ",\"dryRun\":true"))
            .post("/outbox/replay")
            .then()
            .statusCode(200)
            .body("selected", is(2))
            .extract()
            .jsonPath()
            .getList("ids", Integer.class);
    assertThat(dryRunIds).isEqualTo(ints(listed));
    OutboxRows.longs("UPDATE outbox.outbox SET status = 'dead' WHERE id = ?", diesLater);

    Api.admin()
        .contentType("application/json")
        .body(filter("send_receipt", start, ",\"limit\":2,\"ids\":" + dryRunIds))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("matched", is(2))
        .body("changed", is(2))
        .body("ids", is(dryRunIds));

    // By filter and limit alone the oldest dead row, never shown to the operator, would have gone.
    assertThat(OutboxRows.status(diesLater)).isEqualTo("dead");
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> listed.stream().allMatch(id -> OutboxRows.status(id).equals("delivered")));
    assertThat(stub.calls(k -> k.startsWith(prefix))).hasSize(2);
    Api.viewer()
        .get("/outbox/audit?size=1")
        .then()
        .body("items[0].dryRun", is(false))
        .body("items[0].affectedCount", is(2))
        .body("items[0].filter.ids", is(dryRunIds));
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void aListedRowNoLongerDeadIsSkippedAndNoUnlistedRowTakesItsPlace() {
    String prefix = OutboxRows.uniquePrefix("skip");
    Instant start = OutboxRows.databaseNow();
    List<Long> dead = insertDead(prefix, "issue_payout", 3);
    List<Long> listed = dead.subList(0, 2);
    Api.admin()
        .contentType("application/json")
        .body(filter("issue_payout", start, ",\"dryRun\":true,\"limit\":2"))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("ids", is(ints(listed)));
    // Another operator cancels the first listed row meanwhile.
    OutboxRows.longs(
        "UPDATE outbox.outbox SET status = 'cancelled', cancelled_at = now() WHERE id = ?",
        listed.get(0));

    Api.admin()
        .contentType("application/json")
        .body(filter("issue_payout", start, ",\"limit\":2,\"ids\":" + ints(listed)))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("matched", is(1))
        .body("changed", is(1))
        .body("ids", is(ints(listed.subList(1, 2))));

    assertThat(OutboxRows.status(listed.get(0))).isEqualTo("cancelled");
    assertThat(OutboxRows.status(listed.get(1))).isNotEqualTo("dead");
    assertThat(OutboxRows.status(dead.get(2))).isEqualTo("dead");
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void aDryRunListsEveryRowItSelectsAReplayOnlyTheFirstShown() {
    // %test.relay.operations.replay-ids-shown=3: a replay's answer lists the first three.
    String prefix = OutboxRows.uniquePrefix("all");
    Instant start = OutboxRows.databaseNow();
    List<Long> dead = insertDead(prefix, "send_receipt", 5);

    Api.admin()
        .contentType("application/json")
        .body(filter("send_receipt", start, ",\"dryRun\":true"))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("selected", is(5))
        .body("ids", is(ints(dead)));
    Api.admin()
        .contentType("application/json")
        .body(filter("send_receipt", start, ",\"ids\":" + ints(dead)))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("changed", is(5))
        .body("ids", is(ints(dead.subList(0, 3))));
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> dead.stream().allMatch(id -> OutboxRows.status(id).equals("delivered")));
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void aReplayWhileAnotherIsRunningIsRefusedAndChangesNothing() throws Exception {
    String prefix = OutboxRows.uniquePrefix("busy");
    Instant start = OutboxRows.databaseNow();
    List<Long> dead = insertDead(prefix, "send_receipt", 1);
    try (Connection other = OutboxRows.connect()) {
      other.setAutoCommit(false);
      try (PreparedStatement lock = other.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        lock.setLong(1, OutboxChangeRepository.REPLAY_LOCK_KEY);
        lock.execute();
      }
      long audit = OutboxRows.auditRows();

      Api.admin()
          .contentType("application/json")
          .body(filter("send_receipt", start, ""))
          .post("/outbox/replay")
          .then()
          .statusCode(409)
          .contentType("application/problem+json")
          .body("detail", containsString("another replay is running"));

      assertThat(OutboxRows.status(dead.get(0))).isEqualTo("dead");
      assertThat(OutboxRows.auditRows()).isEqualTo(audit);
      other.rollback();
    }
    Api.admin()
        .contentType("application/json")
        .body(filter("send_receipt", start, ""))
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("changed", is(1));
  }

  private static List<Long> insertDead(String prefix, String kind, int count) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String key = prefix + kind + "-" + i;
      ids.add(OutboxRows.insertAs(new NewRow(kind, "{\"n\":" + i + "}", key, null), "dead"));
    }
    return ids;
  }

  private static String filter(String kind, Instant createdAfter, String more) {
    return "{\"kind\":\"" + kind + "\",\"createdAfter\":\"" + createdAfter + "\"" + more + "}";
  }

  private static List<Integer> ints(List<Long> ids) {
    return ids.stream().map(Long::intValue).toList();
  }
}
