package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.TraceLogging;
import dev.onceonly.model.DecodedEvent;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Claim + effect in one transaction (ARCHITECTURE.md §4): {@code INSERT ... ON CONFLICT DO NOTHING}
 * on the claim; the effect runs only if the insert took; a duplicate or conflict is decided by the
 * stored fingerprint ({@link MessageDecider} decides, this class runs the transactions). The caller
 * acks only after this returns, that is after commit.
 */
@ApplicationScoped
public class IdempotentProcessor {

  private static final Logger LOG = Logger.getLogger(IdempotentProcessor.class);

  private final MessageDecider decider;
  private final TransactionRetry retry;

  public IdempotentProcessor(MessageDecider decider, TransactionRetry retry) {
    this.decider = decider;
    this.retry = retry;
  }

  /** Handles one valid message in its own transaction, retried when the failure is transient. */
  public Outcome process(ConsumerName consumer, DecodedEvent decoded, String payload) {
    return process(new Submission(consumer, decoded, payload));
  }

  /** In the message's trace, so that what its retries log carries it too. */
  private Outcome process(Submission submission) {
    decider.effectOf(submission.consumer(), submission.decoded());
    try (TraceLogging.LogScope logging = TraceLogging.open(submission.trace())) {
      return retry.run(
          submission.decoded().event().messageKey(),
          () ->
              QuarkusTransaction.requiringNew()
                  .call(() -> decider.decide(submission, Instant.now())));
    }
  }

  /**
   * Handles several messages in one transaction (ARCHITECTURE.md §4.6): each is claimed and applied
   * as if alone, in {@link Submission#LOCK_ORDER}; a second copy of a key in the same batch sees
   * the first one's claim and is a duplicate. If the transaction fails for any reason, nothing of
   * it stays and every message is handled again in a transaction of its own, so one bad message
   * never costs the others more than a second try. Decisions come back in the order submitted.
   */
  public List<Decision> processAll(List<Submission> batch) {
    if (batch.size() == 1) {
      return List.of(processAlone(batch.get(0)));
    }
    List<Submission> ordered = new ArrayList<>(batch);
    ordered.sort(Submission.LOCK_ORDER);
    try {
      Map<Submission, Outcome> outcomes =
          QuarkusTransaction.requiringNew().call(() -> decider.decideAll(ordered, Instant.now()));
      return batch.stream().map(s -> Decision.of(outcomes.get(s))).toList();
    } catch (RuntimeException e) {
      LOG.debugf(e, "a transaction of %d messages failed, handling each alone", batch.size());
      return batch.stream().map(this::processAlone).toList();
    }
  }

  private Decision processAlone(Submission s) {
    try {
      return Decision.of(process(s));
    } catch (RuntimeException e) {
      return Decision.failed(e);
    }
  }
}
