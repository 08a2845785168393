package dev.onceonly.consumer;

import static dev.onceonly.consumer.TestEvents.decoded;
import static dev.onceonly.consumer.TestEvents.json;
import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.internal.processing.Decision;
import dev.onceonly.internal.processing.Submission;
import dev.onceonly.internal.processing.Verdict;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Several messages in one transaction (ARCHITECTURE.md §4.6): each decided as if alone, all or
 * nothing.
 */
@QuarkusTest
@QuarkusTestResource(
    value = PostgresResource.class,
    initArgs = @ResourceArg(name = "database", value = "onceonly_consumer_test"))
@QuarkusTestResource(RabbitMqResource.class)
class BatchTransactionTest {

  @Inject Processing processor;
  @Inject Db db;

  @Test
  void eachMessageOfABatchIsDecidedAsIfAlone() {
    String alice = unique("c");
    String bob = unique("c");
    OrderCompleted a = order(unique("o"), alice, 1_000);
    OrderCompleted aAltered = order(a.orderId(), alice, 77_700);
    OrderCompleted b = order(unique("o"), bob, 2_500);
    OrderCompleted earlier = order(unique("o"), bob, 300);
    OrderCompleted fresh = order(unique("o"), bob, 5_000);
    // Older than the claim window, never credited: the ledger's natural key decides, credited once.
    OrderCompleted old =
        new OrderCompleted(
            fresh.eventId(),
            fresh.orderId(),
            bob,
            fresh.customerEmail(),
            5_000,
            "EUR",
            fresh.occurredAt().minus(Duration.ofDays(31)));
    assertThat(processor.process(ConsumerName.LOYALTY, decoded(earlier), json(earlier)))
        .isEqualTo(Verdict.APPLIED);

    List<Decision> decisions =
        processor.processAll(
            List.of(
                submission(ConsumerName.LOYALTY, b),
                submission(ConsumerName.LOYALTY, a),
                submission(ConsumerName.RECEIPTS, a),
                submission(ConsumerName.LOYALTY, earlier),
                submission(ConsumerName.LOYALTY, a),
                submission(ConsumerName.LOYALTY, old),
                submission(ConsumerName.LOYALTY, aAltered)));

    assertThat(decisions)
        .extracting(Decision::verdictOrThrow)
        .containsExactly(
            Verdict.APPLIED,
            Verdict.APPLIED,
            Verdict.APPLIED,
            Verdict.DUPLICATE,
            Verdict.DUPLICATE,
            Verdict.APPLIED,
            Verdict.CONFLICT);
    assertThat(db.balance(alice)).isEqualTo(10);
    assertThat(db.balance(bob)).isEqualTo(78);
    assertThat(db.count("SELECT count(*) FROM loyalty.point_ledger WHERE customer_id = ?", alice))
        .isEqualTo(1);
    assertThat(
            db.count(
                "SELECT count(*) FROM outbox.outbox WHERE source_message_key = ?", a.messageKey()))
        .isEqualTo(1);
    assertThat(
            db.count(
                "SELECT count(*) FROM onceonly.message_conflicts WHERE message_key = ?",
                a.messageKey()))
        .isEqualTo(1);
    assertThat(
            db.count(
                "SELECT count(DISTINCT xmin::text) FROM onceonly.processed_messages"
                    + " WHERE message_key IN (?, ?)",
                a.messageKey(),
                b.messageKey()))
        .as("all claims of the batch written by one transaction")
        .isEqualTo(1);
  }

  @Test
  void oneFailingMessageCostsTheOthersNothing() {
    String good = unique("c");
    String bad = unique("c");
    OrderCompleted first = order(unique("o"), good, 400);
    OrderCompleted failing = order(unique("o"), bad, 900);
    OrderCompleted last = order(unique("o"), good, 600);
    String trigger = "fail_" + bad.replace('-', '_');
    db.execute(
        """
        CREATE FUNCTION loyalty.%1$s() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'injected failure in a batch'; END $$;
        CREATE TRIGGER %1$s BEFORE INSERT ON loyalty.point_ledger FOR EACH ROW
          WHEN (NEW.customer_id = '%2$s') EXECUTE FUNCTION loyalty.%1$s();
        """
            .formatted(trigger, bad));
    List<Decision> decisions;
    try {
      decisions =
          processor.processAll(
              List.of(
                  submission(ConsumerName.LOYALTY, first),
                  submission(ConsumerName.LOYALTY, failing),
                  submission(ConsumerName.LOYALTY, last)));
    } finally {
      db.execute(
          "DROP TRIGGER %1$s ON loyalty.point_ledger; DROP FUNCTION loyalty.%1$s();"
              .formatted(trigger));
    }

    assertThat(decisions.get(0).verdict()).isEqualTo(Verdict.APPLIED);
    assertThat(decisions.get(1).failure()).hasStackTraceContaining("injected failure in a batch");
    assertThat(decisions.get(2).verdict()).isEqualTo(Verdict.APPLIED);
    assertThat(db.balance(good)).isEqualTo(10);
    assertThat(db.balance(bad)).isEqualTo(-1);
    assertThat(
            db.count(
                "SELECT count(*) FROM onceonly.processed_messages WHERE message_key = ?",
                failing.messageKey()))
        .as("the failed message leaves no claim, so its redelivery can apply it")
        .isZero();
    assertThat(processor.process(ConsumerName.LOYALTY, decoded(failing), json(failing)))
        .isEqualTo(Verdict.APPLIED);
    assertThat(db.balance(bad)).isEqualTo(9);
  }

  private Submission submission(ConsumerName consumer, OrderCompleted event) {
    return processor.submission(consumer, event);
  }
}
