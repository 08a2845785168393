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
  public Outcome apply(LoyaltyEvent event) throws SQLException {
    if (event instanceof OrderCompleted order) {
      return credit(order);
    }
    if (event instanceof RewardRedeemed redemption) {
      return redeem(redemption);
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
      LOG.warnf("ledger already credits %s: claim expired, natural key held", order.messageKey());
      return Outcome.DUPLICATE;
    }
    ledger.creditBalance(order.customerId(), points);
    return Outcome.APPLIED;
  }

  private Outcome redeem(RewardRedeemed r) throws SQLException {
    String key = r.messageKey();
    if (!ledger.insertDebit(r.customerId(), r.redemptionId(), r.points(), r.eventId(), key)) {
      LOG.warnf("ledger already debits %s: claim expired, natural key held", key);
      return Outcome.DUPLICATE;
    }
    if (!ledger.debitBalance(r.customerId(), r.points())) {
      ledger.deleteDebit(r.redemptionId());
      rejections.record(
          consumer().value(),
          key,
          "insufficient_balance",
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
