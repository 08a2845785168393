package dev.onceonly.consumer;

import dev.onceonly.api.Decoded;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.processing.Decision;
import dev.onceonly.internal.processing.IdempotentProcessor;
import dev.onceonly.internal.processing.Submission;
import dev.onceonly.internal.processing.Verdict;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.LoyaltyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Hands the example's events to the platform's claim transaction directly, as the platform's intake
 * would after decoding them: for tests that decide messages without the broker.
 */
@ApplicationScoped
public class Processing {

  private final IdempotentProcessor processor;
  private final ConsumerCatalog catalog;

  public Processing(IdempotentProcessor processor, ConsumerCatalog catalog) {
    this.processor = processor;
    this.catalog = catalog;
  }

  /** Decides one message of {@code consumer} in a transaction of its own. */
  public Verdict process(ConsumerName consumer, DecodedEvent decoded, String payload) {
    return processor.process(submission(consumer, decoded, payload));
  }

  /** Decides several messages in one transaction, as the group commit does. */
  public List<Decision> processAll(List<Submission> batch) {
    return processor.processAll(batch);
  }

  public Submission submission(ConsumerName consumer, LoyaltyEvent event) {
    return submission(consumer, TestEvents.decoded(event), TestEvents.json(event));
  }

  public Submission submission(ConsumerName consumer, DecodedEvent decoded, String payload) {
    LoyaltyEvent event = decoded.event();
    return new Submission(
        catalog.get(consumer.value()),
        new Decoded<>(event, event.messageKey(), event.occurredAt(), event.customerId()),
        decoded.payloadSha256(),
        payload);
  }
}
