package dev.onceonly.relay.api;

/** Thrown while reading a request to answer with a problem document; nothing has changed. */
public class ProblemException extends RuntimeException {

  private final int status;

  public ProblemException(int status, String detail) {
    super(detail);
    this.status = status;
  }

  public static ProblemException badRequest(String detail) {
    return new ProblemException(400, detail);
  }

  public int status() {
    return status;
  }
}
