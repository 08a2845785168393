package dev.onceonly.web;

import io.vertx.core.json.JsonObject;
import jakarta.ws.rs.core.Response;

/**
 * An RFC 9457 problem document: what went wrong and what to do about it. Both services answer every
 * refused request with one ({@code application/problem+json}), whether JAX-RS or a route handler in
 * front of it refused it.
 */
public record Problem(String type, String title, int status, String detail) {

  public static final String MEDIA_TYPE = "application/problem+json";

  /** The document for {@code status} with the standard reason phrase as title. */
  public static Problem of(int status, String detail) {
    return new Problem("about:blank", title(status), status, detail);
  }

  /** A JAX-RS response carrying the document. */
  public static Response response(int status, String detail) {
    return Response.status(status).type(MEDIA_TYPE).entity(of(status, detail)).build();
  }

  /** The document as JSON text, for handlers that write the response themselves. */
  public String json() {
    return new JsonObject()
        .put("type", type)
        .put("title", title)
        .put("status", status)
        .put("detail", detail)
        .encode();
  }

  private static String title(int status) {
    Response.Status known = Response.Status.fromStatusCode(status);
    return known == null ? "HTTP " + status : known.getReasonPhrase();
  }
}
