package dev.onceonly.consumer.api;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every error leaves as {@code application/problem+json}. */
public class ProblemMappers {

  private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

  @ServerExceptionMapper
  public Response problem(ProblemException e) {
    return Problem.response(e.status(), e.getMessage());
  }

  @ServerExceptionMapper
  public Response notFound(NotFoundException e) {
    return Problem.response(Response.Status.NOT_FOUND, "no such resource");
  }

  @ServerExceptionMapper
  public Response webApplication(WebApplicationException e) {
    Response.Status status = Response.Status.fromStatusCode(e.getResponse().getStatus());
    if (status == null) {
      status = Response.Status.BAD_REQUEST;
    }
    return Problem.response(status, e.getMessage());
  }

  @ServerExceptionMapper
  public Response unexpected(Exception e) {
    LOG.error("request failed", e);
    return Problem.response(
        Response.Status.INTERNAL_SERVER_ERROR, "internal error; the service log has the cause");
  }
}
