package dev.onceonly.consumer.processing;

import static dev.onceonly.consumer.TestEvents.decoded;
import static dev.onceonly.consumer.TestEvents.json;
import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Db;
import dev.onceonly.consumer.Processing;
import dev.onceonly.internal.processing.Decision;
import dev.onceonly.internal.processing.Submission;
import dev.onceonly.internal.processing.Verdict;
import dev.onceonly.model.CustomerProfileChanged;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.RewardRedeemed;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Events by their date (claim window 30 days, replay horizon 365 days, future skew 1 hour): an
 * event dated ahead is refused and leaves no claim; one older than the claim window is decided by
 * the permanent natural keys, applied once if it never was, a duplicate ever after; beyond the
 * horizon it is stale. Nothing older than the window is lost or doubled.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class OldAndFutureEventsTest {

  private static final Duration FORTY_DAYS = Duration.ofDays(40);

  @Inject Processing processor;
  @Inject Db db;

  @Test
  void anEventDatedAheadIsRejectedAsFutureAndLeavesNoClaim() {
    String customer = unique("c");
    OrderCompleted ahead = dated(order(unique("o"), customer, 1_000), Duration.ofHours(-2));

    assertThat(process(ConsumerName.LOYALTY, ahead)).isEqualTo(Verdict.REJECTED);

    assertThat(reason(ahead)).isEqualTo("future");
    assertThat(claims(ahead)).isZero();
    assertThat(db.balance(customer)).isEqualTo(-1);
    assertThat(process(ConsumerName.LOYALTY, dated(ahead, Duration.ZERO)))
        .as("the same order, correctly dated, applies")
        .isEqualTo(Verdict.APPLIED);
  }

  @Test
  void aDatePostgresCannotStoreIsRefusedAndNeverFailsItsBatch() {
    String customer = unique("c");
    OrderCompleted absurd =
        at(order(unique("o"), customer, 1_000), Instant.parse("+300000-01-01T00:00:00Z"));
    OrderCompleted fine = order(unique("o"), customer, 2_000);

    List<Decision> decisions =
        processor.processAll(
            List.of(
                submission(ConsumerName.LOYALTY, absurd), submission(ConsumerName.LOYALTY, fine)));

    assertThat(decisions)
        .extracting(Decision::verdictOrThrow)
        .containsExactly(Verdict.REJECTED, Verdict.APPLIED);
    assertThat(reason(absurd)).isEqualTo("future");
    assertThat(db.balance(customer)).isEqualTo(20);
  }

  @Test
  void anOrderOlderThanTheWindowNeverCreditedIsCreditedOnceWithOneReceipt() {
    String customer = unique("c");
    OrderCompleted old = dated(order(unique("o"), customer, 4_000), FORTY_DAYS);

    assertThat(process(ConsumerName.LOYALTY, old)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.RECEIPTS, old)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, old)).isEqualTo(Verdict.DUPLICATE);
    assertThat(process(ConsumerName.RECEIPTS, old)).isEqualTo(Verdict.DUPLICATE);

    assertThat(db.balance(customer)).isEqualTo(40);
    assertThat(outboxRows(old)).isEqualTo(1);
    assertThat(claims(old)).as("decided by natural keys, without a claim").isZero();
  }

  @Test
  void aRedemptionOlderThanTheWindowIsDebitedOnceOnceTheBalanceCoversIt() {
    String customer = unique("c");
    RewardRedeemed old =
        dated(dev.onceonly.consumer.TestEvents.redemption(unique("r"), customer, 30), FORTY_DAYS);

    assertThat(process(ConsumerName.LOYALTY, old))
        .as("nothing to debit yet")
        .isEqualTo(Verdict.REJECTED);
    assertThat(process(ConsumerName.LOYALTY, order(unique("o"), customer, 5_000)))
        .isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, old))
        .as("replayed once the balance covers it: debited")
        .isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, old)).isEqualTo(Verdict.DUPLICATE);

    assertThat(db.balance(customer)).isEqualTo(20);
    assertThat(outboxRows(old)).as("one payout").isEqualTo(1);
  }

  @Test
  void aNewerProfileVersionOlderThanTheWindowIsApplied() {
    String customer = unique("c");
    CustomerProfileChanged v1 = dev.onceonly.consumer.TestEvents.profile(customer, 1, "silver");
    CustomerProfileChanged v2 =
        dated(dev.onceonly.consumer.TestEvents.profile(customer, 2, "gold"), FORTY_DAYS);

    assertThat(process(ConsumerName.PROFILES, v1)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.PROFILES, v2)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.PROFILES, v2)).isEqualTo(Verdict.DUPLICATE);

    assertThat(
            db.string("SELECT tier FROM loyalty.customer_profiles WHERE customer_id = ?", customer))
        .isEqualTo("gold");
  }

  @Test
  void anOutboxKeyOutlivesItsDeliveredRow() {
    String customer = unique("c");
    OrderCompleted old = dated(order(unique("o"), customer, 4_000), FORTY_DAYS);
    assertThat(process(ConsumerName.RECEIPTS, old)).isEqualTo(Verdict.APPLIED);
    // The relay delivered the receipt and its retention removed the row (7 days by default).
    db.execute("DELETE FROM outbox.outbox WHERE source_message_key = '" + old.messageKey() + "'");

    assertThat(process(ConsumerName.RECEIPTS, old))
        .as("replayed after the row is gone: the key is still taken")
        .isEqualTo(Verdict.DUPLICATE);
    assertThat(outboxRows(old)).isZero();
  }

  @Test
  void anEventBeyondTheReplayHorizonIsStale() {
    String customer = unique("c");
    OrderCompleted ancient = dated(order(unique("o"), customer, 4_000), Duration.ofDays(400));

    assertThat(process(ConsumerName.LOYALTY, ancient)).isEqualTo(Verdict.REJECTED);

    assertThat(reason(ancient)).isEqualTo("stale");
    assertThat(db.balance(customer)).isEqualTo(-1);
  }

  @Test
  void everyEventBeyondTheHorizonIsStaleWhateverItsKindAndItsBatchStillCommits() {
    String customer = unique("c");
    // Year -5000 is a date PostgreSQL cannot store; year 0001 one it can. Profiles take no claim,
    // yet beyond the horizon they are refused like the rest (ARCHITECTURE.md §9).
    CustomerProfileChanged prehistoric =
        at(
            dev.onceonly.consumer.TestEvents.profile(customer, 5, "gold"),
            Instant.parse("-5000-01-01T00:00:00Z"));
    CustomerProfileChanged yearOne =
        at(
            dev.onceonly.consumer.TestEvents.profile(customer, 7, "platinum"),
            Instant.parse("0001-01-01T00:00:00Z"));
    OrderCompleted prehistoricOrder =
        at(order(unique("o"), customer, 4_000), Instant.parse("-5000-01-01T00:00:00Z"));
    OrderCompleted fine = order(unique("o"), customer, 2_000);

    List<Decision> decisions =
        processor.processAll(
            List.of(
                submission(ConsumerName.PROFILES, prehistoric),
                submission(ConsumerName.PROFILES, yearOne),
                submission(ConsumerName.LOYALTY, prehistoricOrder),
                submission(ConsumerName.LOYALTY, fine)));

    assertThat(decisions)
        .extracting(Decision::verdictOrThrow)
        .containsExactly(Verdict.REJECTED, Verdict.REJECTED, Verdict.REJECTED, Verdict.APPLIED);
    for (LoyaltyEvent event : List.of(prehistoric, yearOne, prehistoricOrder)) {
      assertThat(reason(event)).as(event.messageKey()).isEqualTo("stale");
      assertThat(claims(event)).as(event.messageKey()).isZero();
    }
    assertThat(
            db.count(
                "SELECT count(*) FROM loyalty.customer_profiles WHERE customer_id = ?", customer))
        .as("no profile version applied")
        .isZero();
    assertThat(outboxRows(prehistoricOrder)).isZero();
    assertThat(db.balance(customer)).as("only the order of today is credited").isEqualTo(20);
  }

  private Verdict process(ConsumerName consumer, LoyaltyEvent event) {
    return processor.process(consumer, decoded(event), json(event));
  }

  private Submission submission(ConsumerName consumer, LoyaltyEvent event) {
    return processor.submission(consumer, event);
  }

  private long claims(LoyaltyEvent event) {
    return db.count(
        "SELECT count(*) FROM onceonly.processed_messages WHERE message_key = ?",
        event.messageKey());
  }

  private long outboxRows(LoyaltyEvent event) {
    return db.count(
        "SELECT count(*) FROM outbox.outbox WHERE source_message_key = ?", event.messageKey());
  }

  private String reason(LoyaltyEvent event) {
    return db.string(
        "SELECT reason FROM onceonly.rejections WHERE message_key = ?", event.messageKey());
  }

  /** The same event, dated {@code ago} before now (negative: ahead). */
  @SuppressWarnings("unchecked")
  static <T extends LoyaltyEvent> T dated(T event, Duration ago) {
    return at(event, Instant.now().minus(ago));
  }

  @SuppressWarnings("unchecked")
  static <T extends LoyaltyEvent> T at(T event, Instant occurredAt) {
    UUID id = event.eventId();
    if (event instanceof OrderCompleted o) {
      return (T)
          new OrderCompleted(
              id,
              o.orderId(),
              o.customerId(),
              o.customerEmail(),
              o.totalCents(),
              o.currency(),
              occurredAt);
    }
    if (event instanceof RewardRedeemed r) {
      return (T)
          new RewardRedeemed(
              id,
              r.redemptionId(),
              r.customerId(),
              r.points(),
              r.payoutCents(),
              r.currency(),
              occurredAt);
    }
    CustomerProfileChanged p = (CustomerProfileChanged) event;
    return (T)
        new CustomerProfileChanged(
            id, p.customerId(), p.version(), p.tier(), p.email(), occurredAt);
  }
}
