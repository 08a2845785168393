package dev.onceonly.sandbox.problem;

import com.fasterxml.jackson.annotation.JsonInclude;

/** An RFC 9457 problem document, the body of every error the sandbox answers. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String idempotencyKey) {

  public static final String MEDIA_TYPE = "application/problem+json";

  public static Problem of(int status, String slug, String title, String detail, String key) {
    return new Problem("urn:onceonly:sandbox:" + slug, title, status, detail, key);
  }
}
