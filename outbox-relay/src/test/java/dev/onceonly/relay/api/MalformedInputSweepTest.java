package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.console.ConsoleGuard;
import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.testsupport.sweep.Endpoint;
import dev.onceonly.testsupport.sweep.EndpointSweep;
import dev.onceonly.testsupport.sweep.Operation;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every operation of the relay's OpenAPI document, the console's included, gets malformed input (no
 * or wrong credentials, a role too weak, unknown query parameters, NUL bytes and wrong types in
 * every parameter and body field, bodies over the limit with and without a length, cross-site
 * origins) and must answer each with a problem+json 4xx that says what is wrong. An operation not
 * described below fails the test: describe a correct call of it to cover it.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class MalformedInputSweepTest {

  @TestHTTPResource("/")
  URI base;

  private final String prefix = OutboxRows.uniquePrefix("sweep");

  @AfterEach
  void removeRows() {
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  @Test
  void everyEndpointAnswersMalformedInputWithAProblemThatSaysWhatIsWrong() {
    long shown = OutboxRows.insertAs(OutboxRows.receipt(prefix + "shown"), "dead");
    long retried = OutboxRows.insertAs(OutboxRows.receipt(prefix + "retried"), "dead");
    long cancelled = OutboxRows.insertAs(OutboxRows.receipt(prefix + "cancelled"), "pending", 3600);
    long consoleRetried = OutboxRows.insertAs(OutboxRows.receipt(prefix + "c-retried"), "dead");
    long consoleCancelled =
        OutboxRows.insertAs(OutboxRows.receipt(prefix + "c-cancelled"), "pending", 3600);
    String dryRun = "{\"idempotencyKey\":\"" + prefix + "none\",\"dryRun\":true}";
    List<Endpoint> endpoints =
        List.of(
            Endpoint.read("GET /outbox", 200),
            Endpoint.read("GET /outbox/{id}", 200).path("id", shown),
            Endpoint.read("GET /outbox/stats", 200),
            Endpoint.read("GET /outbox/audit", 200),
            Endpoint.change("POST /outbox/{id}/retry", 200).path("id", retried),
            Endpoint.change("POST /outbox/{id}/cancel", 200).path("id", cancelled),
            Endpoint.change("POST /outbox/replay", 200).body(dryRun),
            Endpoint.read("GET /console", 200),
            Endpoint.read("GET /console/rows/{id}", 200).path("id", shown),
            Endpoint.read("GET /console/search", 200).query("q", prefix + "shown"),
            Endpoint.read("GET /console/audit", 200),
            Endpoint.read("GET /console/assets/console.js", 200),
            Endpoint.read("GET /console/assets/console.css", 200),
            console(Endpoint.change("POST /console/actions/rows/{id}/retry", 200))
                .path("id", consoleRetried),
            console(Endpoint.change("POST /console/actions/rows/{id}/cancel", 200))
                .path("id", consoleCancelled),
            console(Endpoint.change("POST /console/actions/replay", 200)).body(dryRun));
    EndpointSweep sweep =
        new EndpointSweep(base, Api.VIEWER + ":viewer-secret", Api.ADMIN + ":admin-secret", 65_536);
    List<Operation> operations = sweep.operations(Api.VIEWER + ":viewer-secret");

    assertThat(operations)
        .extracting(Operation::key)
        .contains("POST /outbox/replay", "POST /console/actions/replay");
    assertThat(sweep.findings(operations, endpoints)).isEmpty();
  }

  /** Console actions are sent by the console's script, which marks them. */
  private static Endpoint console(Endpoint endpoint) {
    return endpoint.header(ConsoleGuard.HEADER, "1");
  }
}
