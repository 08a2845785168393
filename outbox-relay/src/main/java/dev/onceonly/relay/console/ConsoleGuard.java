package dev.onceonly.relay.console;

import dev.onceonly.web.Problem;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * The console's own protections. Its actions must carry {@value #HEADER}: only its script sends it,
 * and a page of another site cannot (a custom header needs CORS, which the relay does not grant),
 * so even a browser that names no origin cannot be made to post one. Its pages may not be framed
 * (no clickjacking of the admin's buttons), run only the console's own script, and are not cached.
 */
public class ConsoleGuard {

  /** The header the console's script sends with every action. */
  public static final String HEADER = "X-OnceOnly-Console";

  static final String POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self';"
          + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

  @ServerRequestFilter
  public Optional<Response> requireConsoleHeader(
      ContainerRequestContext request, ResourceInfo resource) {
    if (resource.getResourceClass() != ConsoleActions.class
        || "1".equals(request.getHeaderString(HEADER))) {
      return Optional.empty();
    }
    return Optional.of(
        Problem.response(
            403,
            "console actions are sent by the console's own page (header "
                + HEADER
                + ": 1); to script a change, use the API under /outbox"));
  }

  @ServerResponseFilter
  public void pageHeaders(ContainerRequestContext request, ContainerResponseContext response) {
    if (!request.getUriInfo().getPath().startsWith("/console")) {
      return;
    }
    MultivaluedMap<String, Object> headers = response.getHeaders();
    headers.putSingle("Content-Security-Policy", POLICY);
    headers.putSingle("X-Frame-Options", "DENY");
    headers.putSingle("X-Content-Type-Options", "nosniff");
    headers.putSingle("Referrer-Policy", "same-origin");
    headers.putSingle("Cache-Control", "no-store");
  }
}
