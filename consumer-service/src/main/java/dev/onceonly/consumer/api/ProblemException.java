package dev.onceonly.consumer.api;

import jakarta.ws.rs.core.Response;

/** Thrown by resources to answer with a problem document. */
public class ProblemException extends RuntimeException {

  private final Response.Status status;

  public ProblemException(Response.Status status, String detail) {
    super(detail);
    this.status = status;
  }

  public static ProblemException badRequest(String detail) {
    return new ProblemException(Response.Status.BAD_REQUEST, detail);
  }

  public static ProblemException notFound(String detail) {
    return new ProblemException(Response.Status.NOT_FOUND, detail);
  }

  public Response.Status status() {
    return status;
  }
}
