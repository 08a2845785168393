package dev.onceonly.pipeline;

import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the proof: every line a check computed from the database, the consumer's counters, the
 * dead-letter queues and the provider sandbox, against what the feed says it sent. Exits 0 only if
 * every check passes.
 *
 * <p>Options: {@code --summary= --db-url= --consumer-management-url= --sandbox-url=
 * [--transport=rabbitmq|kafka] [--amqp-...] [--kafka-bootstrap=]}
 */
public final class Verify {

  private Verify() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options(args);
    FeedSummary sent = FeedSummary.read(Path.of(options.required("summary")));
    String sandboxUrl = options.required("sandbox-url");
    Proof proof = new Proof(System.out);
    boolean kafka = options.transport() == Options.Transport.KAFKA;
    List<DeadLetterPeek.Queue> deadLetters = new ArrayList<>();
    if (kafka) {
      try (KafkaView view = new KafkaView(options.kafkaBootstrap())) {
        for (String consumer : List.of("loyalty", "receipts")) {
          deadLetters.add(view.deadLetters(consumer, 10));
        }
      }
    } else {
      try (Connection amqp = Publisher.connect(options.broker(), "onceonly-verify")) {
        for (String consumer : List.of("loyalty", "receipts")) {
          deadLetters.add(DeadLetterPeek.peek(amqp, "onceonly." + consumer + ".dlq", 10));
        }
      }
    }
    try (PipelineDb db = new PipelineDb(options.database())) {
      proof.section("Broker");
      if (kafka) {
        proof.check(
            sent.returnedMessages() == 0,
            "every record published to its event type's topic was acknowledged by the broker"
                + " (acks=all; %d not)",
            sent.returnedMessages());
      } else {
        proof.check(
            sent.returnedMessages() == 0,
            "every message published was routed and confirmed (%d returned)",
            sent.returnedMessages());
      }
      OutcomeCounters counters =
          OutcomeCounters.scrape(options.required("consumer-management-url"));
      new ConsumerChecks(proof, sent, db, counters).run(deadLetters);

      DeliveryChecks delivery = new DeliveryChecks(proof, db);
      SandboxStats receipts = null;
      SandboxStats payouts = null;
      try {
        receipts = SandboxStats.fetch(sandboxUrl, "receipts");
        payouts = SandboxStats.fetch(sandboxUrl, "payouts");
      } catch (IOException e) {
        proof.section("External effects");
        proof.check(false, "the provider sandbox at %s answers: %s", sandboxUrl, e.getMessage());
      }
      if (payouts != null) {
        delivery.run("send_receipt", sent.uniqueOrders(), "unique orders", receipts);
        delivery.run("issue_payout", sent.redemptionsCovered(), "covered redemptions", payouts);
        delivery.payoutAmounts(payouts, sent.payoutCentsCovered());
      }
      delivery.outboxSettled();
    }
    System.out.println();
    System.out.println((proof.allPassed() ? "PROOF HOLDS: " : "PROOF FAILED: ") + proof.tally());
    System.exit(proof.allPassed() ? 0 : 1);
  }
}
