package dev.onceonly.web;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Answers a request body over {@code quarkus.http.limits.max-body-size} with a 413 problem that
 * says the limit, and reads no more of it. Quarkus' own limit answers an empty 413, so this comes
 * first: a declared {@code Content-Length} is checked by a route before anything is read; a chunked
 * body, which declares no length, is read here (at most the limit, then refused) and handed on to
 * the resource as its entity.
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
    router.route().order(ORDER).handler(this::declared);
  }

  private void declared(RoutingContext context) {
    String declared = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
    if (declared != null && tooLarge(declared)) {
      context
          .response()
          .setStatusCode(413)
          .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
          .putHeader(HttpHeaders.CONNECTION, "close")
          .end(Problem.of(413, detail("of " + declared.strip() + " bytes")).json());
      return;
    }
    context.next();
  }

  /** Reads a body sent without a length, up to the limit; only then does the resource see it. */
  @ServerRequestFilter(preMatching = true)
  public Uni<Response> chunked(ContainerRequestContext request, HttpServerRequest http) {
    if (http.getHeader(HttpHeaders.CONTENT_LENGTH) != null
        || !http.headers().contains(HttpHeaders.TRANSFER_ENCODING, HttpHeaders.CHUNKED, true)) {
      return Uni.createFrom().nullItem();
    }
    return Uni.createFrom()
        .emitter(
            emitter -> {
              Buffer body = Buffer.buffer();
              boolean[] refused = {false};
              http.handler(
                  chunk -> {
                    if (refused[0]) {
                      return;
                    }
                    body.appendBuffer(chunk);
                    if (body.length() > limit) {
                      refused[0] = true;
                      http.pause();
                      http.response().putHeader(HttpHeaders.CONNECTION, "close");
                      emitter.complete(Problem.response(413, detail("sent without a length")));
                    }
                  });
              http.exceptionHandler(emitter::fail);
              http.endHandler(
                  end -> {
                    if (!refused[0]) {
                      request.setEntityStream(new ByteArrayInputStream(body.getBytes()));
                      emitter.complete(null);
                    }
                  });
              if ("100-continue".equalsIgnoreCase(http.getHeader(HttpHeaders.EXPECT))) {
                http.response().writeContinue();
              }
              http.resume();
            });
  }

  private String detail(String body) {
    return "request body "
        + body
        + " is over the limit of "
        + limit
        + " bytes: send a smaller body";
  }

  private boolean tooLarge(String declared) {
    try {
      return Long.parseLong(declared.strip()) > limit;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
