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
import dev.onceonly.consumer.Processing;
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
 * {@code GET /conflicts} shows a quarantined payload, and {@code GET /rejections} a detail that is
 * a payload, as the relay shows an outbox payload: the fields of {@code onceonly.api.redact-fields}
 * (here {@code customerEmail}, {@code email}) read {@code "***"}, everything else as received, and
 * the stored row keeps the original.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class StoredPayloadRedactionTest {

  @Inject Processing processor;
  @Inject Db db;

  @Test
  void rejectionDetailsHidePersonalFieldsWhileTheStoredRowKeepsThem() throws Exception {
    String key = "order-completed:" + unique("o");
    String email = unique("someone") + "@example.com";
    // A detail that is a stored payload, written as the rejection's row holds it.
    db.execute(
        "INSERT INTO onceonly.rejections (consumer, message_key, reason, detail) VALUES ('loyalty', '"
            + key
            + "', 'stale', '{\"customerEmail\":\""
            + email
            + "\",\"nested\":{\"EMAIL\":\""
            + email
            + "\"},\"totalCents\":4200}')");

    List<Map<String, Object>> rejections =
        Api.viewer()
            .queryParam("consumer", "loyalty")
            .get("/rejections")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getList("findAll { it.messageKey == '" + key + "' }");

    assertThat(rejections).hasSize(1);
    assertThat(rejections.get(0).get("reason")).isEqualTo("stale");
    JsonNode shown = new ObjectMapper().readTree((String) rejections.get(0).get("detail"));
    assertThat(shown.path("customerEmail").asText()).isEqualTo("***");
    assertThat(shown.path("nested").path("EMAIL").asText()).isEqualTo("***");
    assertThat(shown.path("totalCents").asLong()).isEqualTo(4200);
    assertThat(rejections.get(0).toString()).doesNotContain(email);
    assertThat(db.string("SELECT detail FROM onceonly.rejections WHERE message_key = ?", key))
        .contains(email);
  }

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
                "SELECT payload FROM onceonly.message_conflicts WHERE message_key = ?",
                original.messageKey()))
        .contains(customer + "@example.com");
  }
}
