package dev.onceonly.web;

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

  public static ProblemException notFound(String detail) {
    return new ProblemException(404, detail);
  }

  public int status() {
    return status;
  }
}
