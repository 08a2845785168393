package dev.onceonly.web;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticator;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.Collection;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every error a resource of either service throws leaves as {@code application/problem+json}; a
 * service adds mappers only for exceptions of its own (the relay's refused operations).
 */
public class ProblemMappers {

  private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

  static final String FORBIDDEN =
      "your role does not allow this: reads need outbox-viewer, changes need outbox-admin";
  static final String UNAUTHORIZED = "log in (HTTP Basic or an OIDC bearer token)";

  @ServerExceptionMapper
  public Response problem(ProblemException e) {
    return Problem.response(e.status(), e.getMessage());
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
    return Problem.response(403, FORBIDDEN);
  }

  /**
   * No or wrong credentials: 401 with the problem and the challenge of the configured mechanisms
   * ({@code WWW-Authenticate: Basic realm="onceonly"}), so that a browser still asks for a login.
   */
  @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
  public Uni<Response> unauthorized(RoutingContext context) {
    HttpAuthenticator authenticator = context.get(HttpAuthenticator.class.getName());
    Uni<ChallengeData> challenge =
        authenticator == null
            ? Uni.createFrom().nullItem()
            : authenticator.getChallenge(context).onFailure().recoverWithNull();
    return challenge.map(
        data -> {
          Response.ResponseBuilder response =
              Response.status(401).type(Problem.MEDIA_TYPE).entity(Problem.of(401, UNAUTHORIZED));
          if (data != null) {
            data.getHeaders().forEach((name, value) -> response.header(name.toString(), value));
          }
          return response.build();
        });
  }

  @ServerExceptionMapper
  public Response notFound(NotFoundException e) {
    return Problem.response(404, "no such resource; the API is described at /q/openapi");
  }

  @ServerExceptionMapper
  public Response webApplication(WebApplicationException e) {
    if (e.getCause() instanceof JsonProcessingException) {
      return Problem.response(
          400,
          "request body is not valid JSON: " + describe((JsonProcessingException) e.getCause()));
    }
    int status = e.getResponse().getStatus();
    String detail = e.getMessage() == null ? "request refused" : e.getMessage();
    return Problem.response(status, detail);
  }

  @ServerExceptionMapper
  public Response unexpected(Exception e) {
    LOG.error("request failed", e);
    return Problem.response(500, "internal error; the service's log has the cause");
  }

  private static String describe(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where =
        at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    return e.getOriginalMessage() + where;
  }
}
