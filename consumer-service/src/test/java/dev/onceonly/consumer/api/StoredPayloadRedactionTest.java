package dev.onceonly.consumer.api;

import static dev.onceonly.consumer.TestEvents.decoded;
import static dev.onceonly.consumer.TestEvents.json;
import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.consumer.Api;
import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Db;
import dev.onceonly.consumer.processing.IdempotentProcessor;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /conflicts} shows a quarantined payload as the relay shows an outbox payload: the
 * fields of {@code onceonly.api.redact-fields} (here {@code customerEmail}) read {@code "***"},
 * everything else as received, and the stored row keeps the original.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class StoredPayloadRedactionTest {

  @Inject IdempotentProcessor processor;
  @Inject Db db;

  @Test
  void conflictPayloadsHidePersonalFieldsWhileTheStoredRowKeepsThem() throws Exception {
    String orderId = unique("o");
    String customer = unique("c");
    OrderCompleted original = order(orderId, customer, 100);
    OrderCompleted altered = order(orderId, customer, 200);
    processor.process(ConsumerName.RECEIPTS, decoded(original), json(original));
    processor.process(ConsumerName.RECEIPTS, decoded(altered), json(altered));

    List<Map<String, Object>> conflicts =
        Api.viewer()
            .queryParam("consumer", "receipts")
            .get("/conflicts")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getList("findAll { it.messageKey == '" + original.messageKey() + "' }");

    assertThat(conflicts).hasSize(1);
    JsonNode shown = new ObjectMapper().readTree((String) conflicts.get(0).get("payload"));
    assertThat(shown.path("customerEmail").asText()).isEqualTo("***");
    assertThat(shown.path("orderId").asText()).isEqualTo(orderId);
    assertThat(shown.path("totalCents").asLong()).isEqualTo(200);
    assertThat(conflicts.get(0).toString()).doesNotContain(customer + "@example.com");
    assertThat(
            db.string(
                "SELECT payload FROM loyalty.message_conflicts WHERE message_key = ?",
                original.messageKey()))
        .contains(customer + "@example.com");
  }
}
