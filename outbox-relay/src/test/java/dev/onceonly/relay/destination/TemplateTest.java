package dev.onceonly.relay.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.destination.Template.MissingValue;
import dev.onceonly.relay.lease.LeasedRow;
import java.time.Instant;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class TemplateTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final LeasedRow ROW =
      new LeasedRow(42, "labels", "{}", "oo1:labels:c:k", null, 1, 1, Instant.EPOCH, null, null);

  @Test
  void rowValuesAndPayloadFieldsFillThePlaceholders() throws Exception {
    Template template =
        Template.parse("/{destination}/{id}/{payload.order.id}/{payload.lines.1.sku}/{payload.n}");

    String text =
        template.render(
            ROW,
            json("{\"order\":{\"id\":\"A7\"},\"lines\":[{\"sku\":\"a\"},{\"sku\":\"b\"}],\"n\":3}"),
            UnaryOperator.identity());

    assertThat(text).isEqualTo("/labels/42/A7/b/3");
    assertThat(template.readsPayload()).isTrue();
    assertThat(template.isConstant()).isFalse();
  }

  @Test
  void valuesPassThroughTheEncoding() throws Exception {
    assertThat(Template.parse("k.{idempotencyKey}").render(ROW, null, v -> v.replace(':', '_')))
        .isEqualTo("k.oo1_labels_c_k");
  }

  @Test
  void theOrderingKeyFillsItsPlaceholderAndARowWithoutOneCannot() throws Exception {
    Template template = Template.parse("{orderingKey}");
    LeasedRow ordered =
        new LeasedRow(42, "labels", "{}", "k", "customer-7", 1, 1, Instant.EPOCH, null, null);

    assertThat(template.render(ordered, null, v -> v)).isEqualTo("customer-7");
    assertThatThrownBy(() -> template.render(ROW, null, v -> v))
        .isInstanceOf(MissingValue.class)
        .hasMessage("the row has no ordering key for {orderingKey}");
  }

  @Test
  void aMissingOrNonScalarFieldCannotFillIt() {
    Template template = Template.parse("{payload.order.id}");

    assertThatThrownBy(() -> template.render(ROW, json("{\"order\":{}}"), v -> v))
        .isInstanceOf(MissingValue.class)
        .hasMessage("the payload has no value for {payload.order.id}");
    assertThatThrownBy(() -> template.render(ROW, json("{\"order\":{\"id\":null}}"), v -> v))
        .isInstanceOf(MissingValue.class);
    assertThatThrownBy(() -> template.render(ROW, json("{\"order\":{\"id\":[1]}}"), v -> v))
        .hasMessage("{payload.order.id} is array in the payload, not a string, number or boolean");
  }

  @Test
  void aTextWithoutPlaceholdersIsConstant() {
    Template template = Template.parse("https://h/v1/receipts");
    assertThat(template.isConstant()).isTrue();
    assertThat(template.readsPayload()).isFalse();
    assertThat(template.sample("x")).isEqualTo("https://h/v1/receipts");
  }

  @Test
  void malformedTemplatesAreRefusedSayingWhy() {
    assertThatThrownBy(() -> Template.parse("/a/{id"))
        .hasMessage("'{' at position 3 is not closed");
    assertThatThrownBy(() -> Template.parse("/a/{id{x}}"))
        .hasMessage("'{' at position 3 is not closed");
    assertThatThrownBy(() -> Template.parse("/a/id}"))
        .hasMessage("'}' at position 5 closes nothing");
    assertThatThrownBy(() -> Template.parse("/{payload}"))
        .hasMessageStartingWith("unknown placeholder {payload}");
    assertThatThrownBy(() -> Template.parse("/{ id }"))
        .hasMessageStartingWith("unknown placeholder { id }");
  }

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }
}
