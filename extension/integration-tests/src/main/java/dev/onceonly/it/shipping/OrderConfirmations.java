package dev.onceonly.it.shipping;

import dev.onceonly.api.Outbox;
import dev.onceonly.api.OutboxMessage;
import jakarta.annotation.security.PermitAll;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The most common use of an outbox, outside any handler: an HTTP endpoint that records a change and
 * queues the call it causes in one transaction. Confirming an order twice queues one e-mail: the
 * idempotency key is derived from the order.
 */
@Path("/orders")
@PermitAll
public class OrderConfirmations {

  private final Outbox outbox;

  public OrderConfirmations(Outbox outbox) {
    this.outbox = outbox;
  }

  /** {@code remindInMinutes}: also queue a reminder that many minutes from now. */
  @POST
  @Path("{orderId}/confirmation")
  @Produces(MediaType.APPLICATION_JSON)
  @Transactional
  public Map<String, Object> confirm(
      @PathParam("orderId") String orderId, @QueryParam("remindInMinutes") Integer remindIn) {
    boolean queued =
        outbox.enqueue(
            OutboxMessage.to("send_receipt")
                .key("order-confirmations", orderId)
                .payload(
                    Map.of(
                        "to",
                        orderId + "@shop.example",
                        "template",
                        "order-confirmation",
                        "orderId",
                        orderId))
                .build());
    if (remindIn != null) {
      outbox.enqueue(
          OutboxMessage.to("send_receipt")
              .key("order-reminders", orderId)
              .payload(Map.of("to", orderId + "@shop.example", "template", "reminder"))
              .notBefore(Instant.now().plus(Duration.ofMinutes(remindIn)))
              .build());
    }
    return Map.of("orderId", orderId, "queued", queued);
  }
}
