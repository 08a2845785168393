package dev.onceonly.consumer.loyalty;

import dev.onceonly.api.Delivery;
import dev.onceonly.api.IdempotentHandler;
import dev.onceonly.api.OnceOnlyConsumer;
import dev.onceonly.api.Outbox;
import dev.onceonly.api.Outcome;
import dev.onceonly.consumer.events.LoyaltyEvents;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.RewardRedeemed;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Consumer {@code loyalty}: credits points for completed orders, debits them for redemptions and
 * queues the payout. A ledger natural key that already exists means the effect happened under a
 * claim that has since expired, or under a copy dated another day: nothing is applied again.
 */
@ApplicationScoped
@OnceOnlyConsumer(name = "loyalty", channel = "loyalty", decoder = LoyaltyEvents.class)
public class LoyaltyHandler implements IdempotentHandler<LoyaltyEvent> {

  /** The reason a redemption the balance did not cover is rejected with. */
  public static final String INSUFFICIENT_BALANCE = "insufficient_balance";

  /** The destination of payouts (the payment provider), as the relay declares it. */
  public static final String PAYOUTS = "issue_payout";

  private static final Logger LOG = Logger.getLogger(LoyaltyHandler.class);

  private final LedgerRepository ledger;
  private final Outbox outbox;
  private final long centsPerPoint;

  public LoyaltyHandler(LedgerRepository ledger, Outbox outbox, LoyaltyConfig config) {
    this.ledger = ledger;
    this.outbox = outbox;
    this.centsPerPoint = config.points().centsPerPoint();
  }

  @Override
  public Outcome handle(LoyaltyEvent event, Delivery delivery) throws SQLException {
    if (event instanceof OrderCompleted order) {
      return credit(order);
    }
    if (event instanceof RewardRedeemed redemption) {
      return redeem(redemption, delivery);
    }
    throw new IllegalArgumentException("loyalty does not handle " + event.type());
  }

  /** Points earned by an order total: whole points, rounded down. */
  public long pointsFor(long totalCents) {
    return totalCents / centsPerPoint;
  }

  private Outcome credit(OrderCompleted order) throws SQLException {
    long points = pointsFor(order.totalCents());
    if (!ledger.credit(
        order.customerId(), order.orderId(), points, order.eventId(), order.messageKey())) {
      LOG.debugf("ledger already credits %s: natural key held", order.messageKey());
      return Outcome.DUPLICATE;
    }
    return Outcome.APPLIED;
  }

  /**
   * A redemption the balance did not cover leaves no ledger row (a replay weeks later may find the
   * balance covers it, and then debits it once), only its rejection. So a redemption claimed now
   * whose key was already rejected is a copy dated another day than the one rejected: it counts as
   * decided before, and the platform finds that claim.
   */
  private Outcome redeem(RewardRedeemed r, Delivery delivery) throws SQLException {
    String key = r.messageKey();
    if (!ledger.insertDebit(r.customerId(), r.redemptionId(), r.points(), r.eventId(), key)) {
      LOG.debugf("ledger already debits %s: natural key held", key);
      return Outcome.DUPLICATE;
    }
    // After the insert, which waited for any transaction debiting the same redemption to end.
    if (delivery.claimed() && delivery.rejectedBefore(INSUFFICIENT_BALANCE)) {
      ledger.deleteDebit(r.redemptionId());
      return Outcome.DUPLICATE;
    }
    if (!ledger.debitBalance(r.customerId(), r.points())) {
      ledger.deleteDebit(r.redemptionId());
      return Outcome.rejected(
          INSUFFICIENT_BALANCE,
          "customer " + r.customerId() + " cannot cover " + r.points() + " points");
    }
    outbox.enqueue(
        PAYOUTS,
        delivery,
        Map.of(
            "redemptionId", r.redemptionId(),
            "customerId", r.customerId(),
            "amountCents", r.payoutCents(),
            "currency", r.currency()),
        "customer:" + r.customerId());
    return Outcome.APPLIED;
  }
}
