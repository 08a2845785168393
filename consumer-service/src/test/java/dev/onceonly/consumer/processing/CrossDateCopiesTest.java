package dev.onceonly.consumer.processing;

import static dev.onceonly.consumer.TestEvents.decoded;
import static dev.onceonly.consumer.TestEvents.json;
import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.redemption;
import static dev.onceonly.consumer.TestEvents.unique;
import static dev.onceonly.consumer.processing.OldAndFutureEventsTest.dated;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.onceonly.consumer.Api;
import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Db;
import dev.onceonly.consumer.Processing;
import dev.onceonly.internal.processing.Verdict;
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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Uniqueness across claim partitions. A copy of a message dated another day (a republish that
 * changed occurredAt: a different payload) lands in another day's partition, where the primary key
 * cannot see the first claim. It must neither apply twice nor go unseen: the effect's natural key
 * catches it, and it is quarantined as the conflict it is, whichever copy comes first and also when
 * both come at once.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class CrossDateCopiesTest {

  private static final Duration ONE_DAY = Duration.ofDays(1);

  @Inject Processing processor;
  @Inject Db db;

  @Test
  void aCopyDatedAnotherDayIsQuarantinedByEveryConsumer() {
    String customer = unique("c");
    OrderCompleted today = order(unique("o"), customer, 3_000);
    OrderCompleted yesterday = dated(today, ONE_DAY);

    assertThat(process(ConsumerName.LOYALTY, today)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.RECEIPTS, today)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, yesterday)).isEqualTo(Verdict.CONFLICT);
    assertThat(process(ConsumerName.RECEIPTS, yesterday)).isEqualTo(Verdict.CONFLICT);

    assertThat(db.balance(customer)).isEqualTo(30);
    assertThat(outboxRows(today)).isEqualTo(1);
    assertThat(conflicts(today)).isEqualTo(2);
    assertThat(claims(today)).as("one claim per consumer: the copy's was taken back").isEqualTo(2);
  }

  @Test
  void theEarlierDatedCopyArrivingSecondIsQuarantinedToo() {
    String customer = unique("c");
    OrderCompleted today = order(unique("o"), customer, 3_000);

    assertThat(process(ConsumerName.LOYALTY, dated(today, ONE_DAY))).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, today)).isEqualTo(Verdict.CONFLICT);

    assertThat(db.balance(customer)).isEqualTo(30);
  }

  @Test
  void twoCopiesOfDifferentDaysAtOnceApplyOnceAndQuarantineTheOther() throws Exception {
    for (int round = 0; round < 5; round++) {
      String customer = unique("c");
      OrderCompleted today = order(unique("o"), customer, 1_200);
      OrderCompleted yesterday = dated(today, ONE_DAY);
      CyclicBarrier start = new CyclicBarrier(2);

      CompletableFuture<Verdict> a = CompletableFuture.supplyAsync(() -> race(start, today));
      CompletableFuture<Verdict> b = CompletableFuture.supplyAsync(() -> race(start, yesterday));

      assertThat(List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS)))
          .containsExactlyInAnyOrder(Verdict.APPLIED, Verdict.CONFLICT);
      assertThat(db.balance(customer)).isEqualTo(12);
      assertThat(conflicts(today)).isEqualTo(1);
    }
  }

  @Test
  void aRejectedRedemptionCopiedOnAnotherDayIsQuarantinedNotDebited() {
    String customer = unique("c");
    RewardRedeemed today = redemption(unique("r"), customer, 30);

    assertThat(process(ConsumerName.LOYALTY, today))
        .as("the balance does not cover it")
        .isEqualTo(Verdict.REJECTED);
    assertThat(process(ConsumerName.LOYALTY, order(unique("o"), customer, 10_000)))
        .isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, dated(today, ONE_DAY)))
        .as("covered now, but a copy of a decided redemption")
        .isEqualTo(Verdict.CONFLICT);

    assertThat(db.balance(customer)).isEqualTo(100);
    assertThat(outboxRows(today)).isZero();
  }

  @Test
  void aBalanceRejectionAfterAFutureOneOfTheSameKeyStillQuarantinesALaterCopy() {
    String customer = unique("c");
    RewardRedeemed today = redemption(unique("r"), customer, 30);

    assertThat(process(ConsumerName.LOYALTY, dated(today, Duration.ofHours(-3))))
        .as("first copy: dated ahead")
        .isEqualTo(Verdict.REJECTED);
    assertThat(rejection(today)).containsExactly("future");
    assertThat(process(ConsumerName.LOYALTY, today))
        .as("second copy, dated today: the balance does not cover it")
        .isEqualTo(Verdict.REJECTED);
    assertThat(rejection(today))
        .as("the balance rejection supersedes the date rejection of the key")
        .containsExactly("insufficient_balance");
    assertThat(process(ConsumerName.LOYALTY, order(unique("o"), customer, 10_000)))
        .isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, dated(today, ONE_DAY)))
        .as("third copy, dated yesterday: covered now, but a copy of a decided redemption")
        .isEqualTo(Verdict.CONFLICT);

    assertThat(db.balance(customer)).isEqualTo(100);
    assertThat(outboxRows(today)).as("no payout").isZero();
    assertThat(conflicts(today)).isEqualTo(1);
    Api.viewer()
        .queryParam("consumer", "loyalty")
        .get("/rejections")
        .then()
        .statusCode(200)
        .body(
            "find { it.messageKey == '" + today.messageKey() + "' }.reason",
            equalTo("insufficient_balance"))
        .body(
            "find { it.messageKey == '" + today.messageKey() + "' }.detail",
            containsString("future"));
  }

  @Test
  void aDateRejectionNeverHidesABalanceRejection() {
    String customer = unique("c");
    RewardRedeemed today = redemption(unique("r"), customer, 30);

    assertThat(process(ConsumerName.LOYALTY, today)).isEqualTo(Verdict.REJECTED);
    assertThat(process(ConsumerName.LOYALTY, dated(today, Duration.ofHours(-3))))
        .isEqualTo(Verdict.REJECTED);

    assertThat(rejection(today)).containsExactly("insufficient_balance");
  }

  private Verdict race(CyclicBarrier start, OrderCompleted copy) {
    try {
      start.await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return process(ConsumerName.LOYALTY, copy);
  }

  private Verdict process(ConsumerName consumer, LoyaltyEvent event) {
    return processor.process(consumer, decoded(event), json(event));
  }

  private long claims(LoyaltyEvent event) {
    return db.count(
        "SELECT count(*) FROM onceonly.processed_messages WHERE message_key = ?",
        event.messageKey());
  }

  private List<String> rejection(LoyaltyEvent event) {
    String reason =
        db.string(
            "SELECT string_agg(reason, ',') FROM onceonly.rejections WHERE message_key = ?",
            event.messageKey());
    return reason == null ? List.of() : List.of(reason.split(","));
  }

  private long conflicts(LoyaltyEvent event) {
    return db.count(
        "SELECT count(*) FROM onceonly.message_conflicts WHERE message_key = ?",
        event.messageKey());
  }

  private long outboxRows(LoyaltyEvent event) {
    return db.count(
        "SELECT count(*) FROM outbox.outbox WHERE source_message_key = ?", event.messageKey());
  }
}
