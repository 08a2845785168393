package dev.onceonly.relay.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  void theOverviewShowsCountsLagDeliveriesParkedKeysAndDeadRowsNewestFirst() {
    // Every figure on the page is the whole outbox's, so start from an empty one. No row below is
    // due (pending rows wait an hour), so the relay leaves them all as written.
    OutboxRows.longs("DELETE FROM outbox.outbox");
    String parkedReceipts = prefix + "customer-1";
    String parkedPayouts = prefix + "customer-2";
    long oldest = insert("send_receipt", "p1", null, "pending");
    insert("send_receipt", "p2", null, "pending");
    long deadParkingReceipts = insert("send_receipt", "d1", parkedReceipts, "dead");
    long deadPlain = insert("send_receipt", "d2", null, "dead");
    insert("send_receipt", "v1", null, "delivered");
    insert("send_receipt", "v2", null, "delivered");
    long deliveredEarlier = insert("send_receipt", "v3", null, "delivered");
    insert("send_receipt", "c1", null, "cancelled");
    long deadParkingPayouts = insert("issue_payout", "d3", parkedPayouts, "dead");
    insert("issue_payout", "p3", parkedPayouts, "pending"); // held back behind its dead row
    insert("issue_payout", "v4", null, "delivered");
    OutboxRows.longs(
        "UPDATE outbox.outbox SET created_at = now() - interval '2 hours 5 minutes' WHERE id = ?",
        oldest);
    OutboxRows.longs(
        "UPDATE outbox.outbox SET delivered_at = now() - interval '5 minutes' WHERE id = ?",
        deliveredEarlier);

    String page = Api.viewer().get("/console").then().statusCode(200).extract().asString();

    List<List<String>> counts = rows(table(page, "counts"));
    assertThat(counts)
        .containsExactly(
            List.of("destination", "pending", "in_flight", "delivered", "dead", "cancelled"),
            List.of("issue_payout", "1", "0", "1", "1", "0"),
            List.of("send_receipt", "2", "0", "3", "2", "1"),
            List.of("all", "3", "0", "4", "3", "1"));
    assertThat(text(page, "oldest-pending")).isEqualTo("2 h 5 min");
    assertThat(text(page, "deliveries-per-minute")).isEqualTo("3");
    assertThat(text(page, "parked-total")).isEqualTo("2");
    assertThat(rows(table(page, "parked-keys")))
        .containsExactly(
            List.of("ordering key", "destination", "dead row"),
            List.of(parkedReceipts, "send_receipt", Long.toString(deadParkingReceipts)),
            List.of(parkedPayouts, "issue_payout", Long.toString(deadParkingPayouts)));
    assertThat(rowIds(table(page, "dead-rows")))
        .containsExactly(deadParkingPayouts, deadPlain, deadParkingReceipts);
    assertThat(rows(table(page, "dead-rows")).get(1))
        .startsWith(Long.toString(deadParkingPayouts), "issue_payout", "—", parkedPayouts);
  }

  @Test
  void theOverviewOfAnOutboxWithNothingWaitingSaysSo() {
    OutboxRows.longs("DELETE FROM outbox.outbox");

    String page = Api.viewer().get("/console").then().statusCode(200).extract().asString();

    assertThat(text(page, "oldest-pending")).isEqualTo("none waiting");
    assertThat(text(page, "deliveries-per-minute")).isEqualTo("0");
    assertThat(text(page, "parked-total")).isEqualTo("0");
    assertThat(page)
        .contains("No dead rows.", "No parked keys.")
        .doesNotContain("id=\"dead-rows\"");
    assertThat(rows(table(page, "counts")))
        .containsExactly(
            List.of("destination", "pending", "in_flight", "delivered", "dead", "cancelled"),
            List.of("all", "0", "0", "0", "0", "0"));
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

  private long insert(String kind, String key, String orderingKey, String status) {
    NewRow row = new NewRow(kind, "{}", prefix + key, orderingKey);
    return "pending".equals(status)
        ? OutboxRows.insertAs(row, status, 3600)
        : OutboxRows.insertAs(row, status);
  }

  /** The text of the element with this id (no markup inside it). */
  private static String text(String page, String id) {
    Matcher m = Pattern.compile("id=\"" + Pattern.quote(id) + "\">([^<]*)<").matcher(page);
    assertThat(m.find()).as("element #" + id).isTrue();
    return m.group(1).trim();
  }

  /** The table with this id, from its opening to its closing tag. */
  private static String table(String page, String id) {
    Matcher m =
        Pattern.compile("<table id=\"" + Pattern.quote(id) + "\">(.*?)</table>", Pattern.DOTALL)
            .matcher(page);
    assertThat(m.find()).as("table #" + id).isTrue();
    return m.group(1);
  }

  /** Each row's cells as text (tags removed), header, body and footer rows in page order. */
  private static List<List<String>> rows(String table) {
    List<List<String>> rows = new ArrayList<>();
    Matcher row = Pattern.compile("<tr[^>]*>(.*?)</tr>", Pattern.DOTALL).matcher(table);
    while (row.find()) {
      List<String> cells = new ArrayList<>();
      Matcher cell =
          Pattern.compile("<t[hd][^>]*>(.*?)</t[hd]>", Pattern.DOTALL).matcher(row.group(1));
      while (cell.find()) {
        cells.add(cell.group(1).replaceAll("<[^>]+>", "").trim());
      }
      rows.add(cells);
    }
    return rows;
  }

  private static List<Long> rowIds(String table) {
    List<Long> ids = new ArrayList<>();
    Matcher m = Pattern.compile("data-row-id=\"([0-9]+)\"").matcher(table);
    while (m.find()) {
      ids.add(Long.parseLong(m.group(1)));
    }
    return ids;
  }
}
