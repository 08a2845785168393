package dev.onceonly.consumer;

import static dev.onceonly.consumer.TestEvents.decoded;
import static dev.onceonly.consumer.TestEvents.json;
import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.onceonly.internal.claim.ClaimRepository;
import dev.onceonly.internal.processing.EventWindows;
import dev.onceonly.internal.processing.Verdict;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The claim mechanism against a real PostgreSQL: once, and only once, under every race. */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class IdempotentProcessorTest {

  @Inject Processing processor;
  @Inject ClaimRepository claims;
  @Inject Db db;

  @Test
  void redeliveredMessageAppliesOnce() {
    String customer = unique("c");
    DecodedEvent event = decoded(order(unique("o"), customer, 12_345));

    assertThat(process(ConsumerName.LOYALTY, event)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.LOYALTY, event)).isEqualTo(Verdict.DUPLICATE);

    assertThat(db.balance(customer)).isEqualTo(123);
    assertThat(
            db.count("SELECT count(*) FROM loyalty.point_ledger WHERE customer_id = ?", customer))
        .isEqualTo(1);
  }

  @Test
  void eachConsumerHasItsOwnClaims() {
    String customer = unique("c");
    DecodedEvent event = decoded(order(unique("o"), customer, 500));

    assertThat(process(ConsumerName.LOYALTY, event)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.RECEIPTS, event)).isEqualTo(Verdict.APPLIED);
    assertThat(process(ConsumerName.RECEIPTS, event)).isEqualTo(Verdict.DUPLICATE);

    assertThat(
            db.string(
                "SELECT idempotency_key FROM outbox.outbox WHERE source_message_key = ?",
                event.event().messageKey()))
        .isEqualTo("oo1:send_receipt:receipts:" + event.event().messageKey());
  }

  @Test
  void concurrentDuplicatesApplyExactlyOnce() throws Exception {
    String customer = unique("c");
    DecodedEvent event = decoded(order(unique("o"), customer, 10_000));
    int threads = 8;
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Verdict>> results = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await(10, TimeUnit.SECONDS);
                  return process(ConsumerName.LOYALTY, event);
                }));
      }
      List<Verdict> outcomes = new ArrayList<>();
      for (Future<Verdict> result : results) {
        outcomes.add(result.get(30, TimeUnit.SECONDS));
      }
      assertThat(outcomes).containsOnlyOnce(Verdict.APPLIED);
      assertThat(outcomes).filteredOn(o -> o == Verdict.DUPLICATE).hasSize(threads - 1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(db.balance(customer)).isEqualTo(100);
  }

  @Test
  void failureAfterClaimRollsBackClaimAndEffect() {
    String customer = unique("c");
    DecodedEvent event = decoded(order(unique("o"), customer, 700));
    String trigger = "fail_" + customer.replace('-', '_');
    db.execute(
        """
        CREATE FUNCTION loyalty.%1$s() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'injected failure after the claim'; END $$;
        CREATE TRIGGER %1$s BEFORE INSERT ON loyalty.point_ledger FOR EACH ROW
          WHEN (NEW.customer_id = '%2$s') EXECUTE FUNCTION loyalty.%1$s();
        """
            .formatted(trigger, customer));
    try {
      assertThatThrownBy(() -> process(ConsumerName.LOYALTY, event))
          .hasStackTraceContaining("injected failure after the claim");
    } finally {
      db.execute(
          "DROP TRIGGER %1$s ON loyalty.point_ledger; DROP FUNCTION loyalty.%1$s();"
              .formatted(trigger));
    }
    assertThat(claimCount(event)).isZero();
    assertThat(db.balance(customer)).isEqualTo(-1);

    assertThat(process(ConsumerName.LOYALTY, event)).isEqualTo(Verdict.APPLIED);
    assertThat(db.balance(customer)).isEqualTo(7);
  }

  @Test
  void waitingDuplicateAppliesWhenTheFirstRollsBack() throws Exception {
    String customer = unique("c");
    OrderCompleted order = order(unique("o"), customer, 900);
    DecodedEvent event = decoded(order);
    CountDownLatch claimed = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> first =
          pool.submit(
              () ->
                  QuarkusTransaction.requiringNew()
                      .run(
                          () -> {
                            claim(event);
                            claimed.countDown();
                            awaitLatch(release);
                            throw new IllegalStateException("first transaction rolls back");
                          }));
      assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();
      Future<Verdict> second = pool.submit(() -> process(ConsumerName.LOYALTY, event));
      await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> waitingOnLock() > 0);
      release.countDown();

      assertThatThrownBy(() -> first.get(10, TimeUnit.SECONDS))
          .hasStackTraceContaining("first transaction rolls back");
      assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(Verdict.APPLIED);
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
    assertThat(db.balance(customer)).isEqualTo(9);
    assertThat(claimCount(event)).isEqualTo(1);
  }

  @Test
  void conflictingPayloadIsQuarantinedWithoutEffect() {
    String customer = unique("c");
    String orderId = unique("o");
    OrderCompleted original = order(orderId, customer, 1_000);
    OrderCompleted altered = order(orderId, customer, 99_900);

    assertThat(process(ConsumerName.LOYALTY, decoded(original))).isEqualTo(Verdict.APPLIED);
    assertThat(processor.process(ConsumerName.LOYALTY, decoded(altered), json(altered)))
        .isEqualTo(Verdict.CONFLICT);

    assertThat(db.balance(customer)).isEqualTo(10);
    assertThat(
            db.string(
                "SELECT payload FROM onceonly.message_conflicts WHERE message_key = ?",
                original.messageKey()))
        .contains("99900");
  }

  @Test
  void serializationFailureIsRetriedInANewTransaction() {
    String customer = unique("c");
    DecodedEvent event = decoded(order(unique("o"), customer, 300));
    String trigger = "serial_" + customer.replace('-', '_');
    db.execute(
        """
        CREATE SEQUENCE loyalty.%1$s_seq;
        CREATE FUNCTION loyalty.%1$s() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF nextval('loyalty.%1$s_seq') = 1 THEN
            RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001';
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER %1$s BEFORE INSERT ON loyalty.point_ledger FOR EACH ROW
          WHEN (NEW.customer_id = '%2$s') EXECUTE FUNCTION loyalty.%1$s();
        """
            .formatted(trigger, customer));
    try {
      assertThat(process(ConsumerName.LOYALTY, event)).isEqualTo(Verdict.APPLIED);
      assertThat(db.count("SELECT last_value FROM loyalty.%s_seq".formatted(trigger))).isEqualTo(2);
    } finally {
      db.execute(
          "DROP TRIGGER %1$s ON loyalty.point_ledger; DROP FUNCTION loyalty.%1$s(); DROP SEQUENCE loyalty.%1$s_seq;"
              .formatted(trigger));
    }
    assertThat(db.balance(customer)).isEqualTo(3);
    assertThat(claimCount(event)).isEqualTo(1);
  }

  private Verdict process(ConsumerName consumer, DecodedEvent event) {
    return processor.process(consumer, event, json(event.event()));
  }

  private void claim(DecodedEvent event) {
    try {
      claims.claim(
          ConsumerName.LOYALTY.value(),
          event.event().messageKey(),
          event.payloadSha256(),
          EventWindows.day(java.time.Instant.now()));
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private long claimCount(DecodedEvent event) {
    return db.count(
        "SELECT count(*) FROM onceonly.processed_messages WHERE message_key = ?",
        event.event().messageKey());
  }

  private long waitingOnLock() {
    return db.count(
        """
        SELECT count(*) FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND query LIKE '%processed_messages%'
           AND datname = current_database()
        """);
  }

  private static void awaitLatch(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("test latch not released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
