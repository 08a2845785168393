package dev.onceonly.sandbox.provider;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The two provider APIs: receipts (e-mail) and payouts. Non-blocking: every call runs on the event
 * loop and waits on timers, never on a sleeping thread.
 */
@Path("/v1")
public class ProviderResource {

  static final String IDEMPOTENCY_KEY = "Idempotency-Key";

  private final CallHandler handler;

  public ProviderResource(CallHandler handler) {
    this.handler = handler;
  }

  /** Sends a receipt e-mail, once per idempotency key. */
  @POST
  @Path("/receipts")
  @Consumes(MediaType.WILDCARD)
  public Uni<Response> receipts(
      @HeaderParam(IDEMPOTENCY_KEY) String key, byte[] body, @Context HttpServerRequest request) {
    return handler.handle(Api.RECEIPTS, key, body).map(reply -> write(reply, request));
  }

  /** Issues a payout, once per idempotency key. */
  @POST
  @Path("/payouts")
  @Consumes(MediaType.WILDCARD)
  public Uni<Response> payouts(
      @HeaderParam(IDEMPOTENCY_KEY) String key, byte[] body, @Context HttpServerRequest request) {
    return handler.handle(Api.PAYOUTS, key, body).map(reply -> write(reply, request));
  }

  private static Response write(Reply reply, HttpServerRequest request) {
    if (reply.drop()) {
      request.connection().close();
      return null;
    }
    Response.ResponseBuilder response =
        Response.status(reply.status()).type(reply.contentType()).entity(reply.body());
    reply.headers().forEach(response::header);
    return response.build();
  }
}
