package dev.onceonly.relay.api;

import jakarta.ws.rs.core.Response;

/** An RFC 9457 problem document: what went wrong and what to do about it. */
public record Problem(String type, String title, int status, String detail) {

  public static final String MEDIA_TYPE = "application/problem+json";

  public static Response response(int status, String detail) {
    Response.Status known = Response.Status.fromStatusCode(status);
    String title = known == null ? "HTTP " + status : known.getReasonPhrase();
    return Response.status(status)
        .type(MEDIA_TYPE)
        .entity(new Problem("about:blank", title, status, detail))
        .build();
  }
}
