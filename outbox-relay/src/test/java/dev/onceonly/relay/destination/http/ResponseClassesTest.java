package dev.onceonly.relay.destination.http;

import static dev.onceonly.relay.destination.DeliveryResult.Classification.FINAL;
import static dev.onceonly.relay.destination.DeliveryResult.Classification.RETRYABLE;
import static dev.onceonly.relay.destination.DeliveryResult.Classification.SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseClassesTest {

  private final ResponseClasses defaults = ResponseClasses.DEFAULT;

  @ParameterizedTest
  @ValueSource(ints = {200, 201, 202, 204, 299})
  void twoHundredsAreDelivered(int status) {
    assertThat(defaults.classify(status)).isEqualTo(SUCCESS);
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 409, 425, 429, 500, 502, 503, 504, 599})
  void transientStatusesAreRetried(int status) {
    assertThat(defaults.classify(status)).isEqualTo(RETRYABLE);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 404, 405, 410, 413, 422, 301, 304, 100})
  void otherStatusesAreFinal(int status) {
    assertThat(defaults.classify(status)).isEqualTo(FINAL);
  }

  @Test
  void noAnswerIsRetried() {
    assertThat(defaults.classify(0)).isEqualTo(RETRYABLE);
  }

  @Test
  void aProviderThatAnswers409ForAKeyItTookCountsItAsDelivered() {
    ResponseClasses alreadyDone =
        new ResponseClasses(List.of("2xx", "409"), List.of("408", "425", "429", "5xx"));

    assertThat(alreadyDone.classify(409)).isEqualTo(SUCCESS);
    assertThat(alreadyDone.classify(503)).isEqualTo(RETRYABLE);
    assertThat(alreadyDone.classify(422)).isEqualTo(FINAL);
  }

  @Test
  void rangesAndClassesCanBeMixedAndSuccessIsCheckedFirst() {
    ResponseClasses mixed = new ResponseClasses(List.of("200-202", " 3xx "), List.of("2xx", "500"));

    assertThat(mixed.classify(202)).isEqualTo(SUCCESS);
    assertThat(mixed.classify(302)).isEqualTo(SUCCESS);
    assertThat(mixed.classify(204)).isEqualTo(RETRYABLE);
    assertThat(mixed.classify(500)).isEqualTo(RETRYABLE);
    assertThat(mixed.classify(501)).isEqualTo(FINAL);
  }

  @Test
  void aMalformedItemIsRefusedNamingIt() {
    assertThatThrownBy(() -> new ResponseClasses(List.of("2xx", "20O"), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'20O' is not a status");
    assertThatThrownBy(() -> new ResponseClasses(List.of("504-500"), List.of()))
        .hasMessageContaining("'504-500'");
    assertThatThrownBy(() -> new ResponseClasses(List.of("6xx"), List.of()))
        .hasMessageContaining("'6xx'");
  }
}
