package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PayloadFingerprintTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String ORDER =
      "{\"eventId\":\"3f1c2a4e-8d7b-4a5b-9c3d-2e6f7a8b9c0d\",\"orderId\":\"9912\","
          + "\"customerId\":\"c-42\",\"customerEmail\":\"ada@example.com\",\"totalCents\":100,"
          + "\"currency\":\"EUR\",\"occurredAt\":\"2024-05-01T10:15:30Z\"}";

  @Test
  void reorderedFieldsGiveTheSameFingerprint() {
    String reordered =
        "{\"occurredAt\":\"2024-05-01T10:15:30Z\",\"currency\":\"EUR\",\"totalCents\":100,"
            + "\"customerEmail\":\"ada@example.com\",\"customerId\":\"c-42\",\"orderId\":\"9912\","
            + "\"eventId\":\"3f1c2a4e-8d7b-4a5b-9c3d-2e6f7a8b9c0d\"}";

    assertThat(fingerprint(reordered)).isEqualTo(fingerprint(ORDER));
  }

  @Test
  void whitespaceDoesNotChangeTheFingerprint() {
    String spaced =
        "{  \r\n\"eventId\" : \"3f1c2a4e-8d7b-4a5b-9c3d-2e6f7a8b9c0d\",\n\t\"orderId\":\"9912\" ,"
            + " \"customerId\"  :\"c-42\",\"customerEmail\":\"ada@example.com\",\n"
            + "  \"totalCents\": 100,\"currency\":\"EUR\",\"occurredAt\":\"2024-05-01T10:15:30Z\"\n}\n";

    assertThat(fingerprint(spaced)).isEqualTo(fingerprint(ORDER));
  }

  @Test
  void equalNumbersInAnyNotationGiveTheSameFingerprint() {
    for (String same : new String[] {"100.0", "100.000", "1E2", "1e+2", "1.00e2"}) {
      assertThat(fingerprint(ORDER.replace(":100,", ":" + same + ",")))
          .as(same)
          .isEqualTo(fingerprint(ORDER));
    }
    assertThat(fingerprint("{\"a\":-0.0}")).isEqualTo(fingerprint("{\"a\":0}"));
  }

  static Stream<Arguments> changedValues() {
    return Stream.of(
        Arguments.of("eventId", "3f1c2a4e-8d7b-4a5b-9c3d-2e6f7a8b9c0e"),
        Arguments.of("orderId", "9913"),
        Arguments.of("customerId", "C-42"),
        Arguments.of("customerEmail", "ada@example.co"),
        Arguments.of("totalCents", 101),
        Arguments.of("totalCents", 100.5),
        Arguments.of("totalCents", "100"),
        Arguments.of("currency", "USD"),
        Arguments.of("occurredAt", "2024-05-01T10:15:31Z"),
        Arguments.of("extra", true));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @MethodSource("changedValues")
  void anyChangedValueChangesTheFingerprint(String field, Object value) throws Exception {
    ObjectNode changed = (ObjectNode) JSON.readTree(ORDER);
    changed.set(field, JSON.valueToTree(value));

    assertThat(PayloadFingerprint.sha256(changed)).isNotEqualTo(fingerprint(ORDER));
  }

  @Test
  void typesAndArrayOrderAreSignificant() {
    assertThat(fingerprint("{\"a\":true}")).isNotEqualTo(fingerprint("{\"a\":\"true\"}"));
    assertThat(fingerprint("{\"a\":null}")).isNotEqualTo(fingerprint("{\"a\":\"null\"}"));
    assertThat(fingerprint("{\"a\":null}")).isNotEqualTo(fingerprint("{}"));
    assertThat(fingerprint("{\"a\":[1,2]}")).isNotEqualTo(fingerprint("{\"a\":[2,1]}"));
    assertThat(fingerprint("{\"a\":{\"b\":1}}")).isNotEqualTo(fingerprint("{\"a.b\":1}"));
  }

  @Test
  void fingerprintIsLowerCaseHexSha256OfTheCanonicalForm() {
    assertThat(fingerprint(ORDER)).matches("[0-9a-f]{64}");
    // printf '{}' | sha256sum
    assertThat(fingerprint(" { } "))
        .isEqualTo("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  }

  @Test
  void canonicalFormSortsKeysAtEveryDepthAndKeepsArrayOrder() {
    String nested =
        "{\"b\": {\"y\": [{\"d\": 1, \"c\": [3, {\"f\": 0.50, \"e\": null}]}], \"x\": true},"
            + " \"a\": false, \"B\": \"up\", \"aa\": []}";

    assertThat(PayloadFingerprint.canonical(tree(nested)))
        .isEqualTo(
            "{\"B\":\"up\",\"a\":false,\"aa\":[],"
                + "\"b\":{\"x\":true,\"y\":[{\"c\":[3,{\"e\":null,\"f\":0.5}],\"d\":1}]}}");
  }

  @Test
  void canonicalStringEscapingIsStable() {
    String body = "{\"k\\\"ey\":\"q\\\"b\\\\s\\nn\\u0001c\\/s\\u00e9\\t\"}";

    assertThat(PayloadFingerprint.canonical(tree(body)))
        .isEqualTo("{\"k\\\"ey\":\"q\\\"b\\\\s\\u000an\\u0001c/s\u00e9\\u0009\"}");
    assertThat(fingerprint(body))
        .isEqualTo(fingerprint("{\"k\\\"ey\":\"q\\\"b\\\\s\\u000an\\u0001c/s\u00e9\\u0009\"}"));
  }

  @Test
  void canonicalNumbersAreExactAndBounded() {
    assertThat(PayloadFingerprint.canonical(tree("[12345678901234567890123, -7, 0.10, 2.5e-3]")))
        .isEqualTo("[12345678901234567890123,-7,0.1,0.0025]");
    assertThat(PayloadFingerprint.canonical(tree("[1e400, 5e-1000]")))
        .isEqualTo("[1" + "0".repeat(400) + ",0." + "0".repeat(999) + "5]");
    assertThat(PayloadFingerprint.canonical(tree("[1e1001, 1e-1001]")))
        .isEqualTo("[1E+1001,1E-1001]");
    assertThat(PayloadFingerprint.canonical(tree("[1e999999999]"))).isEqualTo("[1E+999999999]");
  }

  @Test
  void overflowedDoubleFromAnotherParserDoesNotThrow() {
    JsonNode node = JsonNodeFactory.instance.numberNode(Double.POSITIVE_INFINITY);

    assertThat(PayloadFingerprint.canonical(node)).isEqualTo("Infinity");
    assertThat(PayloadFingerprint.sha256(node)).matches("[0-9a-f]{64}");
  }

  private static JsonNode tree(String json) {
    try {
      return new ObjectMapper()
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String fingerprint(String json) {
    return PayloadFingerprint.sha256(tree(json));
  }
}
