package dev.onceonly.consumer.api;

import jakarta.ws.rs.core.Response;

/** An RFC 9457 problem document: what went wrong and what to do about it. */
public record Problem(String type, String title, int status, String detail) {

  public static final String MEDIA_TYPE = "application/problem+json";

  public static Response response(Response.Status status, String detail) {
    return Response.status(status)
        .type(MEDIA_TYPE)
        .entity(
            new Problem("about:blank", status.getReasonPhrase(), status.getStatusCode(), detail))
        .build();
  }
}
