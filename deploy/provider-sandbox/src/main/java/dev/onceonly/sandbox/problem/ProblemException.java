package dev.onceonly.sandbox.problem;

/** Thrown by the sandbox endpoints to answer a problem document. */
public class ProblemException extends RuntimeException {

  private final transient Problem problem;

  public ProblemException(int status, String slug, String title, String detail) {
    super(detail);
    this.problem = Problem.of(status, slug, title, detail, null);
  }

  public Problem problem() {
    return problem;
  }
}
