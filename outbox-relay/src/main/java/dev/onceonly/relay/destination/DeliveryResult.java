package dev.onceonly.relay.destination;

/**
 * What one attempt at a destination came to, already classified by the destination (each type knows
 * what its answers mean): taken, worth another attempt, or never going to work. {@code status} is
 * the HTTP status when there was one (0 otherwise: no answer, or not HTTP), {@code retryAfter} its
 * {@code Retry-After} header, {@code error} what went wrong (null when taken). {@code outage} says
 * the destination itself looks down (no answer, 5xx): the circuit breaker counts those.
 */
public record DeliveryResult(
    Classification classification, int status, String retryAfter, String error, boolean outage) {

  /** What an answer means for the row. */
  public enum Classification {
    /** The destination took it: the row is delivered. */
    SUCCESS,
    /** Worth another attempt, after a backoff. */
    RETRYABLE,
    /** Will not work however often it is tried: the row is dead. */
    FINAL
  }

  /** An HTTP answer the destination classified; 5xx counts as an outage. */
  public static DeliveryResult answered(
      Classification classification, int status, String retryAfter, String body) {
    return new DeliveryResult(
        classification,
        status,
        retryAfter,
        classification == Classification.SUCCESS ? null : shorten(body),
        status >= 500 && status < 600);
  }

  /** Taken, without an HTTP status (a broker's confirm). */
  public static DeliveryResult taken() {
    return new DeliveryResult(Classification.SUCCESS, 0, null, null, false);
  }

  /** No answer at all: timeout, refused connection, lost connection. An outage. */
  public static DeliveryResult noAnswer(String error) {
    return new DeliveryResult(Classification.RETRYABLE, 0, null, shorten(error), true);
  }

  /** Not taken, without an HTTP status, worth another attempt; {@code outage} as the type says. */
  public static DeliveryResult failed(String error, boolean outage) {
    return new DeliveryResult(Classification.RETRYABLE, 0, null, shorten(error), outage);
  }

  /** Never sent, and never will be: the row cannot be turned into a call (a field it lacks). */
  public static DeliveryResult unsendable(String error) {
    return new DeliveryResult(Classification.FINAL, 0, null, shorten(error), false);
  }

  public boolean hasAnswer() {
    return status > 0;
  }

  /** A one-line description for {@code last_error} and logs. */
  public String describe() {
    if (!hasAnswer()) {
      return error;
    }
    return error == null || error.isBlank() ? "HTTP " + status : "HTTP " + status + ": " + error;
  }

  /** Keeps texts stored in the database short and free of NUL bytes PostgreSQL would refuse. */
  public static String shorten(String text) {
    if (text == null) {
      return null;
    }
    String clean = text.replace('\u0000', ' ').strip();
    return clean.length() <= 500 ? clean : clean.substring(0, 500) + "...";
  }
}
