package dev.onceonly.sandbox.problem;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Turns sandbox errors and framework 4xx errors into problem+json answers. */
public class ProblemMapper {

  @ServerExceptionMapper
  public Response problem(ProblemException e) {
    return toResponse(e.problem());
  }

  @ServerExceptionMapper
  public Response webApplication(WebApplicationException e) {
    int status = e.getResponse().getStatus();
    String title = e.getResponse().getStatusInfo().getReasonPhrase();
    return toResponse(Problem.of(status, "http-" + status, title, e.getMessage(), null));
  }

  static Response toResponse(Problem problem) {
    return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
  }
}
