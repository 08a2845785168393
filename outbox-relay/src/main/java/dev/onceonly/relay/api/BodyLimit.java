package dev.onceonly.relay.api;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers a request whose declared body is over {@code quarkus.http.limits.max-body-size} with a
 * 400 problem document before anything reads it: the operator API answers every input it refuses
 * with 400 and what to fix (issue 4). Quarkus' own check, one step later, still covers chunked
 * bodies that declare no length, with an empty 413.
 */
@ApplicationScoped
public class BodyLimit {

  /** Just before Quarkus' upload limit route ({@code RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT}). */
  static final int ORDER = -3;

  private final long limit;

  public BodyLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
    this.limit = limit.asLongValue();
  }

  void install(@Observes Router router) {
    router.route().order(ORDER).handler(this::check);
  }

  private void check(RoutingContext context) {
    String declared = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
    if (declared != null && tooLarge(declared)) {
      JsonObject problem =
          new JsonObject()
              .put("type", "about:blank")
              .put("title", "Bad Request")
              .put("status", 400)
              .put(
                  "detail",
                  "request body of "
                      + declared
                      + " bytes is over the limit of "
                      + limit
                      + " bytes; send a smaller body (a replay filter is a few hundred bytes)");
      context
          .response()
          .setStatusCode(400)
          .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
          .putHeader(HttpHeaders.CONNECTION, "close")
          .end(problem.encode());
      return;
    }
    context.next();
  }

  private boolean tooLarge(String declared) {
    try {
      return Long.parseLong(declared.strip()) > limit;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
