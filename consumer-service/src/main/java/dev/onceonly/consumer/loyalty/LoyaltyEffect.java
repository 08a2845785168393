package dev.onceonly.consumer.loyalty;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.claim.RejectionRepository;
import dev.onceonly.consumer.config.ConsumerConfig;
import dev.onceonly.consumer.outbox.OutboxWriter;
import dev.onceonly.consumer.processing.MessageEffect;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.OutboxKind;
import dev.onceonly.model.RewardRedeemed;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Consumer {@code loyalty}: credits points for completed orders, debits them for redemptions and
 * queues the payout. A ledger natural key that already exists means the effect happened under a
 * claim that has since expired: nothing is applied again.
 */
@ApplicationScoped
public class LoyaltyEffect implements MessageEffect {

  private static final Logger LOG = Logger.getLogger(LoyaltyEffect.class);

  private final LedgerRepository ledger;
  private final RejectionRepository rejections;
  private final OutboxWriter outbox;
  private final long centsPerPoint;

  public LoyaltyEffect(
      LedgerRepository ledger,
      RejectionRepository rejections,
      OutboxWriter outbox,
      ConsumerConfig config) {
    this.ledger = ledger;
    this.rejections = rejections;
    this.outbox = outbox;
    this.centsPerPoint = config.points().centsPerPoint();
  }

  @Override
  public ConsumerName consumer() {
    return ConsumerName.LOYALTY;
  }

  @Override
  public Outcome apply(LoyaltyEvent event, boolean claimedNow) throws SQLException {
    if (event instanceof OrderCompleted order) {
      return credit(order);
    }
    if (event instanceof RewardRedeemed redemption) {
      return redeem(redemption, claimedNow);
    }
    throw new IllegalArgumentException("loyalty does not handle " + event.type());
  }

  /** Points earned by an order total: whole points, rounded down. */
  public long pointsFor(long totalCents) {
    return totalCents / centsPerPoint;
  }

  private Outcome credit(OrderCompleted order) throws SQLException {
    long points = pointsFor(order.totalCents());
    if (!ledger.insertCredit(
        order.customerId(), order.orderId(), points, order.eventId(), order.messageKey())) {
      LOG.debugf("ledger already credits %s: natural key held", order.messageKey());
      return Outcome.DUPLICATE;
    }
    ledger.creditBalance(order.customerId(), points);
    return Outcome.APPLIED;
  }

  /**
   * A redemption the balance did not cover leaves no ledger row (a replay weeks later may find the
   * balance covers it, and then debits it once), only its rejection. So a redemption claimed now
   * whose key was already rejected is a copy dated another day than the one rejected: it counts as
   * decided before, and the caller finds that claim.
   */
  private Outcome redeem(RewardRedeemed r, boolean claimedNow) throws SQLException {
    String key = r.messageKey();
    if (!ledger.insertDebit(r.customerId(), r.redemptionId(), r.points(), r.eventId(), key)) {
      LOG.debugf("ledger already debits %s: natural key held", key);
      return Outcome.DUPLICATE;
    }
    // After the insert, which waited for any transaction debiting the same redemption to end.
    if (claimedNow && rejections.rejectedForBalance(consumer().value(), key)) {
      ledger.deleteDebit(r.redemptionId());
      return Outcome.DUPLICATE;
    }
    if (!ledger.debitBalance(r.customerId(), r.points())) {
      ledger.deleteDebit(r.redemptionId());
      rejections.record(
          consumer().value(),
          key,
          RejectionRepository.INSUFFICIENT_BALANCE,
          "customer " + r.customerId() + " cannot cover " + r.points() + " points");
      return Outcome.REJECTED;
    }
    outbox.write(
        OutboxKind.ISSUE_PAYOUT,
        consumer().value(),
        key,
        Map.of(
            "redemptionId", r.redemptionId(),
            "customerId", r.customerId(),
            "amountCents", r.payoutCents(),
            "currency", r.currency()),
        "customer:" + r.customerId());
    return Outcome.APPLIED;
  }
}
