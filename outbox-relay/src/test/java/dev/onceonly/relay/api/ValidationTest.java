package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every malformed request is answered 400 (a body over the limit too; 404 for an unknown id) with a
 * problem document that says what to fix, and changes nothing: the dead row that any accepted retry
 * or replay would move stays dead, and no audit row is written.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class ValidationTest {

  private long dead;
  private long auditRows;

  @BeforeEach
  void deadRow() {
    dead =
        OutboxRows.insertAs(OutboxRows.receipt(OutboxRows.uniquePrefix("invalid") + "r"), "dead");
    auditRows = OutboxRows.auditRows();
  }

  static Stream<Arguments> badRequests() {
    String range = "createdAfter=2026-05-02T00:00:00Z&createdBefore=2026-05-01T00:00:00Z";
    return Stream.of(
        get("/outbox?status=nope", "unknown status 'nope': use one of pending, in_flight"),
        get(
            "/outbox?kind=fax",
            "unknown destination 'fax': configured here are issue_payout, outage, send_receipt"),
        get("/outbox?size=0", "size must be a whole number from 1 to 500, was '0'"),
        get("/outbox?size=501", "size must be a whole number from 1 to 500"),
        get("/outbox?size=ten", "size must be a whole number from 1 to 500, was 'ten'"),
        get("/outbox?cursor=abc", "cursor must be the nextCursor of a previous page"),
        get("/outbox?cursor=-5", "cursor must be the nextCursor of a previous page"),
        get("/outbox?order=sideways", "order must be newest or oldest"),
        get("/outbox?createdAfter=yesterday", "createdAfter must be an ISO-8601 timestamp"),
        get("/outbox?createdBefore=2026-13-01T00:00:00Z", "createdBefore must be an ISO-8601"),
        get("/outbox?" + range, "createdAfter (2026-05-02T00:00:00Z) must be earlier than"),
        get("/outbox?stauts=dead", "unknown query parameter 'stauts'"),
        get("/outbox?page=2", "pages are keyset-based: pass cursor="),
        get("/outbox/abc", "the outbox row id must be a positive whole number, was 'abc'"),
        get("/outbox/0", "the outbox row id must be a positive whole number"),
        get("/outbox/audit?size=0", "size must be a whole number from 1 to 500"),
        get("/outbox/audit?cursor=x", "cursor must be the nextCursor"),
        post("/outbox/abc/retry", null, "the outbox row id must be a positive whole number"),
        post("/outbox/-1/cancel", null, "the outbox row id must be a positive whole number"),
        replay("{\"kind\":\"fax\"}", "unknown destination 'fax'"),
        replay("{\"destination\":\"fax\"}", "unknown destination 'fax'"),
        replay("{\"status\":\"cancelled\"}", "status must be dead or left out"),
        replay("{\"status\":\"nope\"}", "unknown status 'nope'"),
        replay("{\"status\":\"pending\"}", "status must be dead or left out, was 'pending'"),
        replay("{\"limit\":0}", "limit must be from 1 to 50"),
        replay("{\"limit\":51}", "limit must be from 1 to 50"),
        replay("{\"createdAfter\":\"soon\"}", "createdAfter must be an ISO-8601 timestamp"),
        replay(
            "{\"createdAfter\":\"2026-05-02T00:00:00Z\",\"createdBefore\":\"2026-05-01T00:00:00Z\"}",
            "must be earlier than createdBefore"),
        replay("{\"dryrun\":true}", "unknown field 'dryrun' in the request body; allowed fields:"),
        replay("{\"limit\":\"ten\"}", "at field 'limit'"),
        replay("{\"kind\":", "request body is not valid JSON"),
        replay("[]", "request body does not fit"),
        replay(null, "send a JSON filter body"),
        replay("{\"ids\":[]}", "ids must list 1 to 50 row ids"),
        replay("{\"ids\":" + oneToFiftyOne() + "}", "ids must list 1 to 50 row ids"),
        replay("{\"ids\":[0]}", "ids must be outbox row ids (positive whole numbers), found 0"),
        replay("{\"ids\":[-3]}", "ids must be outbox row ids"),
        replay("{\"ids\":[7,null]}", "ids must be outbox row ids"),
        replay("{\"ids\":[7,8,7]}", "ids lists row 7 more than once"),
        replay("{\"ids\":\"7\"}", "'ids'"),
        replay("{\"ids\":[\"seven\"]}", "'ids"));
  }

  private static String oneToFiftyOne() {
    return IntStream.rangeClosed(1, 51)
        .mapToObj(Integer::toString)
        .collect(Collectors.joining(",", "[", "]"));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("badRequests")
  void badRequestIs400ProblemThatSaysWhatToFixAndChangesNothing(
      String method, String path, String body, String detail) {
    RequestSpecification request = Api.admin().contentType("application/json");
    if (body != null) {
      request = request.body(body);
    }
    request
        .request(method, path)
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("status", is(400))
        .body("title", is("Bad Request"))
        .body("detail", containsString(detail));
    assertNothingChanged();
  }

  @Test
  void bodyOverTheLimitIs413ProblemAndChangesNothing() {
    String huge = "{\"kind\":\"send_receipt\",\"orderingKey\":\"" + "x".repeat(70_000) + "\"}";
    Api.admin()
        .contentType("application/json")
        .body(huge)
        .post("/outbox/replay")
        .then()
        .statusCode(413)
        .contentType("application/problem+json")
        .body("detail", containsString("over the limit of 65536 bytes"));
    assertNothingChanged();
  }

  @Test
  void unknownIdIs404ForReadsAndChanges() {
    Api.admin().get("/outbox/999999999").then().statusCode(404).body("status", is(404));
    Api.admin().post("/outbox/999999999/retry").then().statusCode(404);
    Api.admin()
        .post("/outbox/999999999/cancel")
        .then()
        .statusCode(404)
        .contentType("application/problem+json")
        .body("detail", is("no outbox row with id 999999999"));
    assertNothingChanged();
  }

  private void assertNothingChanged() {
    assertThat(OutboxRows.status(dead)).isEqualTo("dead");
    assertThat(OutboxRows.auditRows()).isEqualTo(auditRows);
  }

  private static Arguments get(String path, String detail) {
    return Arguments.of("GET", path, null, detail);
  }

  private static Arguments post(String path, String body, String detail) {
    return Arguments.of("POST", path, body, detail);
  }

  private static Arguments replay(String body, String detail) {
    return post("/outbox/replay", body, detail);
  }
}
