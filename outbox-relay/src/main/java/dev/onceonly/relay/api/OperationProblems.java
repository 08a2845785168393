package dev.onceonly.relay.api;

import dev.onceonly.relay.operations.OperationRefused;
import dev.onceonly.web.Problem;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * An operator change the row does not allow: 404 for a row that does not exist, 409 otherwise.
 * Every other error is answered by the shared {@code dev.onceonly.web.ProblemMappers}.
 */
public class OperationProblems {

  @ServerExceptionMapper
  public Response refused(OperationRefused e) {
    int status = e.reason() == OperationRefused.Reason.NOT_FOUND ? 404 : 409;
    return Problem.response(status, e.getMessage());
  }
}
