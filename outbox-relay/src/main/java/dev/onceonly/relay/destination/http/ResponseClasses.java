package dev.onceonly.relay.destination.http;

import dev.onceonly.relay.destination.DeliveryResult.Classification;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * Sorts an HTTP status into taken, worth retrying, or final, as one destination's {@code
 * responses.success} and {@code responses.retryable} say; every other status is final. Items are
 * codes ({@code 409}), ranges ({@code 500-504}) or classes ({@code 5xx}); success is checked first.
 *
 * <p>The default ({@link #DEFAULT}) takes 2xx and retries 408, 409, 425, 429 and 5xx. 409 is
 * retried although the general rule puts it with the "other 4xx": idempotent providers answer 409
 * while a call with the same key is still in progress (a previous attempt whose lease expired,
 * still running); making that row dead would lose a delivery that is about to succeed. A provider
 * that answers 409 for a key it has already taken ("already done") lists it under success instead.
 */
public final class ResponseClasses {

  public static final ResponseClasses DEFAULT =
      new ResponseClasses(List.of("2xx"), List.of("408", "409", "425", "429", "5xx"));

  private final BitSet success;
  private final BitSet retryable;

  /** Reads the two lists; a malformed item is an {@link IllegalArgumentException} naming it. */
  public ResponseClasses(List<String> success, List<String> retryable) {
    this.success = statuses(success);
    this.retryable = statuses(retryable);
  }

  /** What {@code status} means; 0 (no answer at all) is always worth another attempt. */
  public Classification classify(int status) {
    if (status <= 0) {
      return Classification.RETRYABLE;
    }
    if (status < 1000 && success.get(status)) {
      return Classification.SUCCESS;
    }
    if (status < 1000 && retryable.get(status)) {
      return Classification.RETRYABLE;
    }
    return Classification.FINAL;
  }

  private static BitSet statuses(List<String> items) {
    BitSet set = new BitSet(600);
    for (String raw : items) {
      String item = raw.strip().toLowerCase(Locale.ROOT);
      if (item.isEmpty()) {
        continue;
      }
      if (item.matches("[1-5]xx")) {
        int base = (item.charAt(0) - '0') * 100;
        set.set(base, base + 100);
      } else if (item.matches("\\d{3}-\\d{3}")) {
        int from = Integer.parseInt(item.substring(0, 3));
        int to = Integer.parseInt(item.substring(4));
        require(from >= 100 && to <= 599 && from <= to, raw);
        set.set(from, to + 1);
      } else if (item.matches("\\d{3}")) {
        int code = Integer.parseInt(item);
        require(code >= 100 && code <= 599, raw);
        set.set(code);
      } else {
        require(false, raw);
      }
    }
    return set;
  }

  private static void require(boolean ok, String item) {
    if (!ok) {
      throw new IllegalArgumentException(
          "'"
              + item
              + "' is not a status: use codes (409), ranges (500-504) or classes (5xx) from 100"
              + " to 599");
    }
  }
}
