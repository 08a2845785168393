package dev.onceonly.relay.api;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.onceonly.relay.operations.OperationRefused;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.Collection;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Every error of the operator API leaves as {@code application/problem+json}. */
public class ProblemMappers {

  private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

  @ServerExceptionMapper
  public Response problem(ProblemException e) {
    return Problem.response(e.status(), e.getMessage());
  }

  @ServerExceptionMapper
  public Response refused(OperationRefused e) {
    int status = e.reason() == OperationRefused.Reason.NOT_FOUND ? 404 : 409;
    return Problem.response(status, e.getMessage());
  }

  @ServerExceptionMapper
  public Response unknownField(UnrecognizedPropertyException e) {
    Collection<Object> known = e.getKnownPropertyIds();
    String allowed =
        known == null
            ? ""
            : "; allowed fields: "
                + known.stream()
                    .map(Object::toString)
                    .collect(Collectors.toCollection(TreeSet::new))
                    .stream()
                    .collect(Collectors.joining(", "));
    return Problem.response(
        400, "unknown field '" + e.getPropertyName() + "' in the request body" + allowed);
  }

  @ServerExceptionMapper
  public Response mismatchedInput(MismatchedInputException e) {
    String field =
        e.getPath().stream()
            .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
            .collect(Collectors.joining("."));
    return Problem.response(
        400,
        "request body does not fit"
            + (field.isEmpty() ? "" : " at field '" + field + "'")
            + ": "
            + describe(e));
  }

  @ServerExceptionMapper
  public Response forbidden(ForbiddenException e) {
    return Problem.response(
        403, "your role does not allow this: reads need outbox-viewer, changes need outbox-admin");
  }

  @ServerExceptionMapper
  public Response unauthorized(UnauthorizedException e) {
    return Problem.response(401, "log in (HTTP Basic or an OIDC bearer token)");
  }

  @ServerExceptionMapper
  public Response notFound(NotFoundException e) {
    return Problem.response(404, "no such resource; the API is described at /q/openapi");
  }

  @ServerExceptionMapper
  public Response webApplication(WebApplicationException e) {
    int status = e.getResponse().getStatus();
    if (e.getCause() instanceof JsonProcessingException) {
      return Problem.response(
          400,
          "request body is not valid JSON: " + describe((JsonProcessingException) e.getCause()));
    }
    String detail = e.getMessage() == null ? "request refused" : e.getMessage();
    return Problem.response(status, detail);
  }

  @ServerExceptionMapper
  public Response unexpected(Exception e) {
    LOG.error("operator API request failed", e);
    return Problem.response(500, "internal error; the relay's log has the cause");
  }

  private static String describe(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where =
        at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    return e.getOriginalMessage() + where;
  }
}
