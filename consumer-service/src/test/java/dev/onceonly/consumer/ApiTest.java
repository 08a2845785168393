package dev.onceonly.consumer;

import static dev.onceonly.consumer.TestEvents.decoded;
import static dev.onceonly.consumer.TestEvents.json;
import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The consumer's REST contract (ARCHITECTURE.md §8) and its problem answers. */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class ApiTest {

  @Inject Processing processor;

  @Test
  void balanceLedgerAndClaimAreReadable() {
    String customer = unique("c");
    OrderCompleted first = order(unique("o"), customer, 2_500);
    OrderCompleted second = order(unique("o"), customer, 1_000);
    processor.process(ConsumerName.LOYALTY, decoded(first), json(first));
    processor.process(ConsumerName.LOYALTY, decoded(second), json(second));

    Api.viewer()
        .get("/balances/{id}", customer)
        .then()
        .statusCode(200)
        .body("customerId", equalTo(customer))
        .body("points", equalTo(35));
    Api.viewer()
        .queryParam("customerId", customer)
        .queryParam("size", 1)
        .queryParam("page", 1)
        .get("/ledger")
        .then()
        .statusCode(200)
        .body("$", hasSize(1))
        .body("[0].orderId", equalTo(second.orderId()))
        .body("[0].points", equalTo(10));
    Api.viewer()
        .get("/claims/loyalty/{key}", first.messageKey())
        .then()
        .statusCode(200)
        .body("messageKey", equalTo(first.messageKey()))
        .body("payloadSha256", equalTo(decoded(first).payloadSha256()));
  }

  @Test
  void conflictsAreListed() {
    String orderId = unique("o");
    String customer = unique("c");
    OrderCompleted original = order(orderId, customer, 100);
    OrderCompleted altered = order(orderId, customer, 200);
    processor.process(ConsumerName.RECEIPTS, decoded(original), json(original));
    processor.process(ConsumerName.RECEIPTS, decoded(altered), json(altered));

    Api.viewer()
        .queryParam("consumer", "receipts")
        .get("/conflicts")
        .then()
        .statusCode(200)
        .body("messageKey", hasItem(original.messageKey()));
  }

  @Test
  void aFutureDatedEventIsListedAsAFutureRejection() {
    OrderCompleted now = order(unique("o"), unique("c"), 1_000);
    OrderCompleted ahead =
        new OrderCompleted(
            now.eventId(),
            now.orderId(),
            now.customerId(),
            now.customerEmail(),
            now.totalCents(),
            now.currency(),
            Instant.now().plus(Duration.ofDays(2)));
    processor.process(ConsumerName.LOYALTY, decoded(ahead), json(ahead));

    String found = "find { it.messageKey == '" + ahead.messageKey() + "' }";
    Api.viewer()
        .queryParam("consumer", "loyalty")
        .get("/rejections")
        .then()
        .statusCode(200)
        .contentType("application/json")
        .body(found + ".consumer", equalTo("loyalty"))
        .body(found + ".reason", equalTo("future"))
        .body(found + ".detail", containsString(ahead.occurredAt().toString()))
        .body(found + ".rejectedAt", notNullValue());
  }

  @Test
  void badInputGetsAProblemThatSaysWhatToFix() {
    Api.viewer()
        .get("/balances/{id}", unique("nobody"))
        .then()
        .statusCode(404)
        .contentType("application/problem+json")
        .body("detail", containsString("no balance"));
    Api.viewer()
        .queryParam("customerId", "x")
        .queryParam("size", 0)
        .get("/ledger")
        .then()
        .statusCode(400)
        .contentType("application/problem+json")
        .body("detail", containsString("size must be a whole number from 1 to 500"));
    Api.viewer().get("/ledger").then().statusCode(400).body("detail", containsString("customerId"));
    Api.viewer()
        .get("/claims/nosuch/order-completed:1")
        .then()
        .statusCode(400)
        .body("detail", containsString("unknown consumer 'nosuch'"));
    Api.viewer().get("/claims/loyalty/order-completed:{id}", unique("none")).then().statusCode(404);
  }
}
