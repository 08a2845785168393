package dev.onceonly.model;

/** The message cannot be decoded or breaks the contract; the text says what is wrong. */
public final class InvalidEventException extends Exception {

  public InvalidEventException(String message) {
    super(message);
  }

  public InvalidEventException(String message, Throwable cause) {
    super(message, cause);
  }
}
