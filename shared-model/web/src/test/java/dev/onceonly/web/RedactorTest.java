package dev.onceonly.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedactorTest {

  private final ObjectMapper json = new ObjectMapper();
  private final Redactor redactor = new Redactor(List.of("to", " customerEmail ", "IBAN", ""));

  @Test
  void configuredFieldsAreMaskedAtAnyDepthIgnoringCaseWhateverTheirType() throws Exception {
    JsonNode payload =
        json.readTree(
            """
            {"to":"a@b.c","customeremail":"a@b.c","orderId":"o1",
             "payout":{"iban":{"country":"DE","number":"89"},"amount":5},
             "lines":[{"Iban":"X"},{"to":["x","y"]},3]}
            """);

    JsonNode redacted = redactor.redact(payload);

    assertThat(redacted.toString())
        .isEqualTo(
            "{\"to\":\"***\",\"customeremail\":\"***\",\"orderId\":\"o1\","
                + "\"payout\":{\"iban\":\"***\",\"amount\":5},"
                + "\"lines\":[{\"Iban\":\"***\"},{\"to\":\"***\"},3]}");
  }

  @Test
  void theGivenPayloadIsNotChanged() throws Exception {
    JsonNode payload = json.readTree("{\"to\":\"a@b.c\"}");
    redactor.redact(payload);
    assertThat(payload.get("to").asText()).isEqualTo("a@b.c");
  }

  @Test
  void payloadsThatAreNotObjectsPassThrough() throws Exception {
    assertThat(redactor.redact(json.readTree("\"to\"")).asText()).isEqualTo("to");
    assertThat(redactor.redact(json.readTree("[1,2]")).toString()).isEqualTo("[1,2]");
  }

  @Test
  void storedTextIsRedactedWhenItIsAPayloadAndKeptWhenItIsPlainText() {
    assertThat(redactor.redactText("{\"customerEmail\":\"a@b.c\",\"orderId\":\"o1\"}"))
        .isEqualTo("{\"customerEmail\":\"***\",\"orderId\":\"o1\"}");
    assertThat(redactor.redactText("customer c1 cannot cover 500 points"))
        .isEqualTo("customer c1 cannot cover 500 points");
    assertThat(redactor.redactText("{\"to\": \"a@b.c\", broken")).isEqualTo(Redactor.MASK);
    assertThat(redactor.redactText(null)).isNull();
  }
}
