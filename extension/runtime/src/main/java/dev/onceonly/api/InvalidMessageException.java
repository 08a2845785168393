package dev.onceonly.api;

/**
 * A message that cannot be decided, whatever is retried: a body that is not the event, a missing
 * key or date. The message goes to its consumer's dead-letter queue at once, with this exception's
 * message as the reason in headers, and is never redelivered. Carries no stack trace: it is bad
 * data, not a fault.
 */
public class InvalidMessageException extends Exception {

  private static final long serialVersionUID = 1L;

  public InvalidMessageException(String reason) {
    super(reason, null, false, false);
  }

  public InvalidMessageException(String reason, Throwable cause) {
    super(reason, cause, false, false);
  }
}
