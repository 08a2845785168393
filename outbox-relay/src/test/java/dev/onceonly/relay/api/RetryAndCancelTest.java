package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Attempt;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Call;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code POST /outbox/{id}/retry} and {@code /cancel}: what they change, refuse and audit. */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class RetryAndCancelTest {

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void retriedDeadRowIsDeliveredWithItsKeyAndAFreshAttemptBudget() {
    String key = OutboxRows.uniquePrefix("retry") + "r";
    // max-attempts is 5 in tests: five 503s make the row dead.
    stub.script(
        key,
        Step.status(503),
        Step.status(503),
        Step.status(503),
        Step.status(503),
        Step.status(503));
    long id = OutboxRows.insert(OutboxRows.receipt(key));
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(20))
        .until(() -> OutboxRows.status(id).equals("dead"));
    assertThat(OutboxRows.row(id).attempts()).isEqualTo(5);
    // One more failure after the retry: without a fresh budget it would make the row dead again.
    stub.script(key, Step.status(503));

    Api.admin()
        .post("/outbox/" + id + "/retry")
        .then()
        .statusCode(200)
        .body("row.id", is((int) id))
        .body("row.attempts", is(5))
        .body("attempts.size()", is(5));

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(id).equals("delivered"));
    List<Attempt> attempts = OutboxRows.attempts(id);
    assertThat(attempts)
        .extracting(Attempt::outcome)
        .containsExactly("retry", "retry", "retry", "retry", "dead", "retry", "delivered");
    assertThat(attempts).extracting(Attempt::attempt).containsExactly(1, 2, 3, 4, 5, 6, 7);
    assertThat(stub.calls(key)).hasSize(7).extracting(Call::key).containsOnly(key);
    Api.viewer()
        .get("/outbox/audit?size=1")
        .then()
        .statusCode(200)
        .body("items[0].action", is("retry"))
        .body("items[0].targetId", is((int) id))
        .body("items[0].actor", is(Api.ADMIN))
        .body("items[0].affectedCount", is(1))
        .body("items[0].dryRun", is(false));
  }

  @Test
  void onlyDeadRowsCanBeRetried() {
    String key = OutboxRows.uniquePrefix("retry-delivered") + "r";
    long id = OutboxRows.insertAs(OutboxRows.receipt(key), "delivered");
    long audit = OutboxRows.auditRows();

    Api.admin()
        .post("/outbox/" + id + "/retry")
        .then()
        .statusCode(409)
        .contentType("application/problem+json")
        .body("detail", containsString("is delivered: only dead rows can be retried"));
    Api.admin().post("/outbox/999999999/retry").then().statusCode(404);

    assertThat(OutboxRows.status(id)).isEqualTo("delivered");
    assertThat(OutboxRows.auditRows()).isEqualTo(audit);
  }

  @Test
  void cancelledRowIsNeverSentAgain() {
    String key = OutboxRows.uniquePrefix("cancel") + "r";
    stub.script(key, Step.retryAfter(503, "2"));
    long id = OutboxRows.insert(OutboxRows.receipt(key));
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.row(id).attempts() == 1 && OutboxRows.status(id).equals("pending"));

    Api.admin()
        .post("/outbox/" + id + "/cancel")
        .then()
        .statusCode(200)
        .body("row.status", is("cancelled"))
        .body("row.cancelledAt", notNullValue());

    // It was due again 2 s after its first attempt; cancelled, it is not called again.
    await()
        .pollInSameThread()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(() -> stub.calls(key).size() == 1 && OutboxRows.status(id).equals("cancelled"));
    Api.viewer()
        .get("/outbox/audit?size=1")
        .then()
        .body("items[0].action", is("cancel"))
        .body("items[0].targetId", is((int) id));
  }

  @Test
  void cancellingTheDeadRowOfAnOrderingKeyUnparksTheRowsBehindIt() {
    String prefix = OutboxRows.uniquePrefix("unpark");
    String customer = prefix + "customer";
    long dead = OutboxRows.insertAs(OutboxRows.receipt(prefix + "1", customer), "dead");
    long behind = OutboxRows.insert(OutboxRows.receipt(prefix + "2", customer));

    Api.admin().post("/outbox/" + dead + "/cancel").then().statusCode(200);

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(behind).equals("delivered"));
    assertThat(stub.calls(prefix + "1")).isEmpty();
  }

  @Test
  void rowsBeingDeliveredOrDoneCannotBeCancelled() {
    String prefix = OutboxRows.uniquePrefix("cancel-refused");
    String held = prefix + "held";
    stub.script(held, Step.normal().held(Duration.ofSeconds(10)));
    long inFlight = OutboxRows.insert(OutboxRows.receipt(held));
    long delivered = OutboxRows.insertAs(OutboxRows.receipt(prefix + "done"), "delivered");
    await().atMost(Duration.ofSeconds(10)).until(() -> stub.inProgress(held));
    long audit = OutboxRows.auditRows();

    Api.admin()
        .post("/outbox/" + inFlight + "/cancel")
        .then()
        .statusCode(409)
        .contentType("application/problem+json")
        .body("detail", containsString("a provider call is running"));
    Api.admin()
        .post("/outbox/" + delivered + "/cancel")
        .then()
        .statusCode(409)
        .body("detail", containsString("only pending and dead rows can be cancelled"));
    Api.admin().post("/outbox/999999999/cancel").then().statusCode(404);
    assertThat(OutboxRows.auditRows()).isEqualTo(audit);

    stub.releaseHeld();
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(inFlight).equals("delivered"));
  }
}
