package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code GET /outbox/{id}}: the row, its redacted payload and its attempts. */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class RowDetailTest {

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void configuredFieldsAreRedactedAtAnyDepthWhileTheStoredPayloadIsUntouched() {
    String key = OutboxRows.uniquePrefix("redact") + "r";
    String payload =
        """
        {"to":"ann@example.com","orderId":"o-1","totalCents":1250,
         "customer":{"Email":"ann@example.com","name":"Ann"},
         "accounts":[{"iban":"DE89370400440532013000","accountNumber":12345678,"bank":"B"}]}
        """;
    long id = OutboxRows.insertAs(new NewRow("send_receipt", payload, key, null), "dead");

    Api.viewer()
        .get("/outbox/" + id)
        .then()
        .statusCode(200)
        .body("row.id", is((int) id))
        .body("row.status", is("dead"))
        .body("row.idempotencyKey", is(key))
        .body("payload.to", is("***"))
        .body("payload.customer.Email", is("***"))
        .body("payload.accounts[0].iban", is("***"))
        .body("payload.accounts[0].accountNumber", is("***"))
        .body("payload.orderId", is("o-1"))
        .body("payload.totalCents", is(1250))
        .body("payload.customer.name", is("Ann"))
        .body("payload.accounts[0].bank", is("B"));
    assertThat(OutboxRows.payload(id))
        .contains("ann@example.com")
        .contains("DE89370400440532013000");
  }

  @Test
  void everyAttemptIsListedWithOutcomeStatusErrorAndTiming() {
    String key = OutboxRows.uniquePrefix("attempts") + "r";
    stub.script(key, Step.status(503));
    long id = OutboxRows.insert(OutboxRows.receipt(key));
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(id).equals("delivered"));

    Api.viewer()
        .get("/outbox/" + id)
        .then()
        .statusCode(200)
        .body("row.status", is("delivered"))
        .body("row.attempts", is(2))
        .body("attempts.size()", is(2))
        .body("attempts[0].attempt", is(1))
        .body("attempts[0].outcome", is("retry"))
        .body("attempts[0].httpStatus", is(503))
        .body("attempts[0].error", containsString("503"))
        .body("attempts[0].relayId", is("relay-main"))
        .body("attempts[0].durationMillis", greaterThanOrEqualTo(0))
        .body("attempts[1].attempt", is(2))
        .body("attempts[1].outcome", is("delivered"))
        .body("attempts[1].httpStatus", is(200))
        .body("attempts[1].error", nullValue())
        .body("attempts[1].startedAt", notNullValue())
        .body("attempts[1].finishedAt", notNullValue());
  }

  @Test
  void unknownIdIs404Problem() {
    Api.viewer()
        .get("/outbox/999999999")
        .then()
        .statusCode(404)
        .contentType("application/problem+json")
        .body("detail", is("no outbox row with id 999999999"));
  }
}
