package dev.onceonly.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The console over HTTP: what each role gets, what protects its actions, and what search finds.
 * (ConsoleBrowserTest drives the same pages in a real browser.)
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class ConsoleTest {

  private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";

  private final String prefix = OutboxRows.uniquePrefix("console");

  @AfterEach
  void removeRows() {
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void anActionWithoutTheConsolesHeaderIsRefusedAndChangesNothing() {
    long dead = OutboxRows.insertAs(OutboxRows.receipt(prefix + "dead"), "dead");
    long audit = OutboxRows.auditRows();

    Api.admin()
        .post("/console/actions/rows/" + dead + "/retry")
        .then()
        .statusCode(403)
        .contentType("application/problem+json")
        .body("detail", containsString("X-OnceOnly-Console"));

    assertThat(OutboxRows.status(dead)).isEqualTo("dead");
    assertThat(OutboxRows.auditRows()).isEqualTo(audit);
  }

  @Test
  void aConsoleActionIsTheAuditedOperation() {
    long pending = OutboxRows.insertAs(OutboxRows.receipt(prefix + "later"), "pending", 3600);
    long audit = OutboxRows.auditRows();

    Api.admin()
        .header(ConsoleGuard.HEADER, "1")
        .post("/console/actions/rows/" + pending + "/cancel")
        .then()
        .statusCode(200)
        .body("status", is("cancelled"));

    assertThat(OutboxRows.status(pending)).isEqualTo("cancelled");
    assertThat(OutboxRows.auditRows()).isEqualTo(audit + 1);
    Api.viewer()
        .get("/console/audit")
        .then()
        .statusCode(200)
        .body(containsString("<td>cancel</td>"))
        .body(containsString("/console/rows/" + pending));
  }

  @Test
  void aViewerSeesNoActionAndTheServerRefusesThemAnyway() {
    long dead = OutboxRows.insertAs(OutboxRows.receipt(prefix + "dead"), "dead");

    Api.viewer()
        .get("/console/rows/" + dead)
        .then()
        .statusCode(200)
        .body(containsString("id=\"row-status\">dead<"))
        .body(not(containsString("data-action")));
    Api.admin()
        .get("/console/rows/" + dead)
        .then()
        .statusCode(200)
        .body(containsString("data-action=\"retry\""));
    Api.viewer()
        .header(ConsoleGuard.HEADER, "1")
        .post("/console/actions/rows/" + dead + "/retry")
        .then()
        .statusCode(403)
        .contentType("application/problem+json");
    assertThat(OutboxRows.status(dead)).isEqualTo("dead");
  }

  @Test
  void pagesMayNotBeFramedNorRunOtherScriptsNorBeCached() {
    Api.viewer()
        .get("/console")
        .then()
        .statusCode(200)
        .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
        .header("Content-Security-Policy", containsString("script-src 'self'"))
        .header("X-Frame-Options", "DENY")
        .header("Cache-Control", "no-store");
  }

  @Test
  void searchFindsARowByOrderIdMessageKeyIdempotencyKeyAndTraceId() {
    String order = prefix + "o-42";
    long id = OutboxRows.insertAs(OutboxRows.receipt(prefix + "key"), "delivered");
    OutboxRows.sourceOf(id, "receipts", "order-completed:" + order);
    long attemptTraced = OutboxRows.insertAs(OutboxRows.receipt(prefix + "other"), "dead");
    OutboxRows.insertAttempt(
        attemptTraced, 1, "dead", 422, "no", "00-" + TRACE + "-b7ad6b7169203331-01");
    long rowTraced = OutboxRows.insertAs(OutboxRows.receipt(prefix + "third"), "pending", 3600);
    OutboxRows.traceRow(rowTraced, "00-" + TRACE + "-00f067aa0ba902b7-01");

    for (String q : new String[] {order, "order-completed:" + order, prefix + "key"}) {
      String page =
          Api.viewer()
              .queryParam("q", q)
              .get("/console/search")
              .then()
              .statusCode(200)
              .extract()
              .asString();
      assertThat(page).as(q).contains("data-row-id=\"" + id + "\"");
      assertThat(page).as(q).doesNotContain("data-row-id=\"" + attemptTraced + "\"");
    }
    String byTrace =
        Api.viewer()
            .queryParam("q", TRACE.toUpperCase())
            .get("/console/search")
            .then()
            .statusCode(200)
            .extract()
            .asString();
    assertThat(byTrace)
        .contains("data-row-id=\"" + attemptTraced + "\"", "data-row-id=\"" + rowTraced + "\"")
        .doesNotContain("data-row-id=\"" + id + "\"");
    Api.viewer()
        .queryParam("q", prefix + "nothing")
        .get("/console/search")
        .then()
        .statusCode(200)
        .body(containsString("Nothing found"));
  }

  @Test
  void rowDetailShowsTheTraceIdOfTheRowAndOfEachAttempt() {
    long id = OutboxRows.insertAs(OutboxRows.receipt(prefix + "traced"), "dead");
    OutboxRows.traceRow(id, "00-" + TRACE + "-00f067aa0ba902b7-01");
    OutboxRows.insertAttempt(id, 1, "dead", 422, "no", "00-" + TRACE + "-b7ad6b7169203331-01");
    OutboxRows.insertAttempt(id, 2, "dead", 422, "no", null);

    Api.viewer()
        .get("/outbox/" + id)
        .then()
        .statusCode(200)
        .body("row.traceId", is(TRACE))
        .body("attempts[0].traceId", is(TRACE))
        .body("attempts[1].traceId", is((String) null));
  }
}
