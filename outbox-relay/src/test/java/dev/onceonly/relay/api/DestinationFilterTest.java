package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rows are found, counted and replayed by destination ({@code destination=}, or {@code kind=}, its
 * older name): configured ones, and any other that open rows still name.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class DestinationFilterTest {

  @Test
  void rowsAreListedByDestinationOrByItsOlderNameKind() {
    String prefix = OutboxRows.uniquePrefix("by-destination");
    String group = prefix + "group";
    OutboxRows.insertAs(new NewRow("send_receipt", "{}", prefix + "r1", group), "dead");
    OutboxRows.insertAs(new NewRow("send_receipt", "{}", prefix + "r2", group), "dead");
    OutboxRows.insertAs(new NewRow("issue_payout", "{}", prefix + "p1", group), "dead");

    for (String parameter : List.of("destination", "kind")) {
      Api.viewer()
          .get("/outbox?orderingKey=" + group + "&" + parameter + "=send_receipt")
          .then()
          .statusCode(200)
          .body("items.size()", is(2))
          .body("items.destination", is(List.of("send_receipt", "send_receipt")))
          .body("items.kind", is(List.of("send_receipt", "send_receipt")));
    }
    Api.viewer()
        .get("/outbox?orderingKey=" + group + "&destination=issue_payout&kind=issue_payout")
        .then()
        .statusCode(200)
        .body("items.size()", is(1));
    Api.viewer()
        .get("/outbox?destination=send_receipt&kind=issue_payout")
        .then()
        .statusCode(400)
        .body(
            "detail",
            containsString("destination 'send_receipt' and kind 'issue_payout' disagree"));
    Api.viewer()
        .get("/outbox?destination=fax")
        .then()
        .statusCode(400)
        .body("detail", containsString("unknown destination 'fax': configured here are"));
  }

  @Test
  void aDestinationNoLongerConfiguredIsFoundWhileItsRowsAreOpenAndReplayedAlone() {
    String prefix = OutboxRows.uniquePrefix("retired");
    String retired = "retired_" + prefix.replaceAll("[^a-z0-9]", "");
    long first = OutboxRows.insertAs(new NewRow(retired, "{}", prefix + "a", null), "dead");
    long second = OutboxRows.insertAs(new NewRow(retired, "{}", prefix + "b", null), "dead");
    long receipt = OutboxRows.insertAs(OutboxRows.receipt(prefix + "receipt"), "dead");

    Api.viewer()
        .get("/outbox?destination=" + retired)
        .then()
        .statusCode(200)
        .body("items.id", is(List.of((int) second, (int) first)));
    Api.admin()
        .contentType("application/json")
        .body("{\"destination\":\"" + retired + "\"}")
        .post("/outbox/replay")
        .then()
        .statusCode(200)
        .body("changed", is(2));

    // Its rows wait again (no relay here delivers them); the receipt was not the filter's.
    assertThat(List.of(OutboxRows.status(first), OutboxRows.status(second)))
        .containsOnly("pending");
    assertThat(OutboxRows.status(receipt)).isEqualTo("dead");
    Api.viewer()
        .get("/outbox/audit?size=1")
        .then()
        .statusCode(200)
        .body("items[0].filter.destination", is(retired));
    OutboxRows.deleteKeysStartingWith(prefix);
  }
}
