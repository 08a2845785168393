package dev.onceonly.relay.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.net.URL;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint of the operator API against every kind of caller: anonymous → 401, viewer → 200 on
 * reads and 403 on changes (changing nothing), admin → allowed.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class AuthorizationMatrixTest {

  /** One endpoint with what it needs to succeed. */
  record Call(String method, String path, String body) {
    int send(RequestSpecification spec) {
      RequestSpecification request = spec.contentType("application/json");
      if (body != null) {
        request = request.body(body);
      }
      return request.request(method, path).then().extract().statusCode();
    }
  }

  private String prefix;
  private long dead;
  private long pending;

  @BeforeEach
  void rows() {
    prefix = OutboxRows.uniquePrefix("authz");
    dead = OutboxRows.insertAs(OutboxRows.receipt(prefix + "dead"), "dead");
    // Due in an hour: the relay leaves it pending, so an admin can cancel it.
    pending = OutboxRows.insertAs(OutboxRows.receipt(prefix + "later"), "pending", 3600);
  }

  @AfterEach
  void removeRows() {
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  private List<Call> reads() {
    return List.of(
        new Call("GET", "/outbox", null),
        new Call("GET", "/outbox?status=dead&size=5", null),
        new Call("GET", "/outbox/" + dead, null),
        new Call("GET", "/outbox/stats", null),
        new Call("GET", "/outbox/audit", null),
        new Call("GET", "/q/openapi", null));
  }

  private List<Call> changes() {
    return List.of(
        new Call("POST", "/outbox/" + dead + "/retry", null),
        new Call("POST", "/outbox/" + pending + "/cancel", null),
        new Call("POST", "/outbox/replay", "{\"idempotencyKey\":\"none\",\"dryRun\":true}"));
  }

  @Test
  void anonymousCallersGet401EverywhereAndChangeNothing() {
    long audit = OutboxRows.auditRows();
    for (Call call : concat(reads(), changes())) {
      assertThat(call.send(Api.anonymous())).as(call.toString()).isEqualTo(401);
    }
    assertUnchanged(audit);
  }

  @Test
  void wrongPasswordGets401() {
    assertThat(
            new Call("GET", "/outbox", null)
                .send(given().auth().preemptive().basic(Api.ADMIN, "guess")))
        .isEqualTo(401);
  }

  @Test
  void viewerReadsEverything() {
    for (Call call : reads()) {
      assertThat(call.send(Api.viewer())).as(call.toString()).isEqualTo(200);
    }
  }

  @Test
  void viewerGets403ProblemOnEveryChangeAndNothingChanges() {
    long audit = OutboxRows.auditRows();
    for (Call call : changes()) {
      assertThat(call.send(Api.viewer())).as(call.toString()).isEqualTo(403);
    }
    Api.viewer()
        .post("/outbox/" + dead + "/retry")
        .then()
        .statusCode(403)
        .contentType("application/problem+json")
        .body("status", is(403))
        .body("detail", containsString("outbox-admin"));
    assertUnchanged(audit);
  }

  @Test
  void adminReadsAndChanges() {
    for (Call call : reads()) {
      assertThat(call.send(Api.admin())).as(call.toString()).isEqualTo(200);
    }
    long audit = OutboxRows.auditRows();
    for (Call call : changes()) {
      assertThat(call.send(Api.admin())).as(call.toString()).isEqualTo(200);
    }
    assertThat(OutboxRows.status(dead)).isIn("pending", "in_flight", "delivered");
    assertThat(OutboxRows.status(pending)).isEqualTo("cancelled");
    assertThat(OutboxRows.auditRows()).isEqualTo(audit + 3);
  }

  @TestHTTPResource(value = "/", management = true)
  URL management;

  @Test
  void healthAndMetricsNeedNoLoginOnTheManagementPort() {
    for (String path : List.of("health/ready", "health/live", "metrics")) {
      assertThat(new Call("GET", path, null).send(Api.anonymous().baseUri(management.toString())))
          .as(path)
          .isEqualTo(200);
    }
  }

  private void assertUnchanged(long auditRows) {
    assertThat(OutboxRows.status(dead)).isEqualTo("dead");
    assertThat(OutboxRows.status(pending)).isEqualTo("pending");
    assertThat(OutboxRows.auditRows()).isEqualTo(auditRows);
  }

  private static List<Call> concat(List<Call> a, List<Call> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }
}
