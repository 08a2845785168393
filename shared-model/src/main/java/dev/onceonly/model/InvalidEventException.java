package dev.onceonly.model;

/**
 * The message cannot be decoded or breaks the contract; the text says what is wrong.
 *
 * <p>Carries no stack trace: it reports bad input, not a fault of the code, and its message names
 * the field at fault. A flood of invalid messages then costs no stack walks (the consumer decodes
 * on threads many frames deep); the parser's own exception, when there is one, stays as the cause.
 */
public final class InvalidEventException extends Exception {

  public InvalidEventException(String message) {
    super(message, null, false, false);
  }

  public InvalidEventException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
