package dev.onceonly.relay.retry;

import static dev.onceonly.relay.retry.ResponseClassifier.Classification.PERMANENT;
import static dev.onceonly.relay.retry.ResponseClassifier.Classification.RETRYABLE;
import static dev.onceonly.relay.retry.ResponseClassifier.Classification.SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.provider.ProviderResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseClassifierTest {

  @ParameterizedTest
  @ValueSource(ints = {200, 201, 202, 204, 299})
  void twoHundredsAreDelivered(int status) {
    assertThat(classify(status)).isEqualTo(SUCCESS);
  }

  @ParameterizedTest
  @ValueSource(ints = {408, 409, 425, 429, 500, 502, 503, 504, 599})
  void transientStatusesAreRetried(int status) {
    assertThat(classify(status)).isEqualTo(RETRYABLE);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 401, 403, 404, 405, 410, 413, 422, 301, 304, 100})
  void otherStatusesArePermanent(int status) {
    assertThat(classify(status)).isEqualTo(PERMANENT);
  }

  @Test
  void noAnswerIsRetried() {
    assertThat(ResponseClassifier.classify(ProviderResponse.noAnswer("timeout after 2000 ms")))
        .isEqualTo(RETRYABLE);
  }

  private static ResponseClassifier.Classification classify(int status) {
    return ResponseClassifier.classify(ProviderResponse.answered(status, null, "{}"));
  }
}
