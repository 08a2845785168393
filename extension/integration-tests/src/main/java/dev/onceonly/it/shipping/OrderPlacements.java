package dev.onceonly.it.shipping;

import dev.onceonly.api.Outbox;
import dev.onceonly.api.OutboxMessage;
import jakarta.annotation.security.PermitAll;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * The shop's side of the loop: an order placed here is queued in the outbox for the destination
 * {@value #DESTINATION}, which the relay publishes to the exchange the shipping consumer reads,
 * with the row's idempotency key as the message's {@code message-id}: the key the consumer claims
 * by. (In a real system the shop is another service; here one service plays both, which changes
 * nothing of the path a message takes.)
 */
@Path("/shop/orders")
@PermitAll
public class OrderPlacements {

  /** The relay's destination for placed orders (a RabbitMQ exchange). */
  static final String DESTINATION = "orders";

  private final Outbox outbox;

  public OrderPlacements(Outbox outbox) {
    this.outbox = outbox;
  }

  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces(MediaType.APPLICATION_JSON)
  @Transactional
  public Map<String, Object> place(OrderPlaced order) {
    boolean queued =
        outbox.enqueue(
            OutboxMessage.to(DESTINATION)
                .key("shop-orders", order.orderId())
                .payload(order)
                .orderingKey("customer:" + order.customerId())
                .build());
    return Map.of("orderId", order.orderId(), "queued", queued);
  }
}
