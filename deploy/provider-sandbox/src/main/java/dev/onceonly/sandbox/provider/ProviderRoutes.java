package dev.onceonly.sandbox.provider;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * The provider APIs, {@code POST /v1/receipts} (e-mail), {@code POST /v1/payouts} and the webhook
 * receiver {@code POST /v1/webhooks} (signed, keyed by {@code webhook-id}), as plain Vert.x routes
 * on the event loop: a provider call is one small JSON body in and one out, and the JAX-RS layer
 * cost about as much CPU as the call itself, which a benchmark of the relay on the same machine
 * pays for. Every call waits on timers, never on a sleeping thread. The admin API ({@code
 * /sandbox/...}) stays JAX-RS.
 */
@ApplicationScoped
public class ProviderRoutes {

  static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  /** Bodies beyond this are refused by the body handler (413) before they reach the handler. */
  static final long MAX_BODY_BYTES = 1024 * 1024;

  private static final Logger LOG = Logger.getLogger(ProviderRoutes.class);

  private final CallHandler handler;

  public ProviderRoutes(CallHandler handler) {
    this.handler = handler;
  }

  void register(@Observes Router router) {
    for (Api api : Api.values()) {
      router
          .post("/v1/" + api.path())
          .handler(BodyHandler.create(false).setBodyLimit(MAX_BODY_BYTES))
          .handler(context -> call(api, context));
    }
  }

  private void call(Api api, RoutingContext context) {
    Buffer buffer = context.body().buffer();
    byte[] body = buffer == null ? new byte[0] : buffer.getBytes();
    String traceparent = context.request().getHeader("traceparent");
    (api == Api.WEBHOOKS
            ? handler.handleWebhook(
                context.request().getHeader("webhook-id"),
                context.request().getHeader("webhook-timestamp"),
                context.request().getHeader("webhook-signature"),
                traceparent,
                body)
            : handler.handle(api, context.request().getHeader(IDEMPOTENCY_KEY), traceparent, body))
        .whenComplete(
            (reply, failure) -> {
              if (failure != null) {
                LOG.errorf(failure, "%s call failed", api.path());
                context.fail(failure);
              } else if (!context.response().closed()) { // the caller may have hung up meanwhile
                write(context, reply);
              }
            });
  }

  private static void write(RoutingContext context, Reply reply) {
    if (reply.drop()) {
      context.request().connection().close();
      return;
    }
    HttpServerResponse response = context.response().setStatusCode(reply.status());
    response.putHeader("Content-Type", reply.contentType());
    reply.headers().forEach(response::putHeader);
    response.end(Buffer.buffer(reply.body()));
  }
}
