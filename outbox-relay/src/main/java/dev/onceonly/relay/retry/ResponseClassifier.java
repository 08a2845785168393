package dev.onceonly.relay.retry;

import dev.onceonly.relay.provider.ProviderResponse;

/** Sorts a provider response into delivered, worth retrying, or never going to work. */
public final class ResponseClassifier {

  /** What a response means for the row. */
  public enum Classification {
    SUCCESS,
    RETRYABLE,
    PERMANENT
  }

  private ResponseClassifier() {}

  /**
   * 2xx is success; no answer (timeout, connection error), 408, 409, 425, 429 and 5xx are
   * retryable; every other status (other 4xx, and 1xx/3xx a JSON API should never send) is
   * permanent.
   *
   * <p>409 is retryable although the general rule lists it with the "other 4xx": idempotent
   * providers answer 409 when a call with the same key is still in progress (a previous attempt
   * whose lease expired, still running). Making that row dead would lose a delivery that is about
   * to succeed.
   */
  public static Classification classify(ProviderResponse response) {
    if (!response.hasAnswer()) {
      return Classification.RETRYABLE;
    }
    int status = response.status();
    if (status >= 200 && status < 300) {
      return Classification.SUCCESS;
    }
    if (status == 408
        || status == 409
        || status == 425
        || status == 429
        || (status >= 500 && status < 600)) {
      return Classification.RETRYABLE;
    }
    return Classification.PERMANENT;
  }
}
