package dev.onceonly.relay.destination;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorBodiesTest {

  private final ErrorBodies bodies =
      new ErrorBodies(List.of("to", "email", "customerEmail", "iban"));

  @Test
  void jsonBodiesAreRedactedFieldByFieldAtAnyDepth() {
    String body =
        "{\"error\":\"invalid\",\"request\":{\"to\":\"ann@example.com\",\"amount\":5},"
            + "\"echo\":[{\"IBAN\":\"DE89370400440532013000\"}]}";

    assertThat(bodies.redact(body))
        .isEqualTo(
            "{\"error\":\"invalid\",\"request\":{\"to\":\"***\",\"amount\":5},"
                + "\"echo\":[{\"IBAN\":\"***\"}]}");
  }

  @Test
  void aBodyCutShortStillHasItsPairsMasked() {
    String cut = "{\"detail\":\"rejected\",\"customerEmail\" : \"ann@exam";

    assertThat(bodies.redact(cut)).isEqualTo("{\"detail\":\"rejected\",\"customerEmail\":\"***\"");
  }

  @Test
  void textAroundJsonHasItsPairsMasked() {
    String html = "<pre>bad request {\"email\": \"bob@example.com\", \"code\": 7}</pre>";

    assertThat(bodies.redact(html))
        .isEqualTo("<pre>bad request {\"email\":\"***\", \"code\": 7}</pre>");
  }

  @Test
  void bodiesWithoutThoseFieldsAreKeptAsTheyAre() {
    assertThat(bodies.redact("upstream timeout")).isEqualTo("upstream timeout");
    assertThat(bodies.redact(null)).isNull();
    assertThat(bodies.redact("{\"retry\":true}")).isEqualTo("{\"retry\":true}");
  }
}
