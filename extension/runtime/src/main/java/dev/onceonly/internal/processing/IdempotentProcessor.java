package dev.onceonly.internal.processing;

import dev.onceonly.internal.messaging.TraceLogging;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Claim + effect in one transaction: {@code INSERT ... ON CONFLICT DO NOTHING} on the claim; the
 * handler runs only if the insert took; a duplicate or conflict is decided by the stored
 * fingerprint ({@link MessageDecider} decides, this class runs the transactions). The caller acks
 * only after this returns, that is after commit.
 */
@Singleton
public class IdempotentProcessor {

  private static final Logger LOG = Logger.getLogger(IdempotentProcessor.class);

  private final MessageDecider decider;
  private final TransactionRetry retry;

  public IdempotentProcessor(MessageDecider decider, TransactionRetry retry) {
    this.decider = decider;
    this.retry = retry;
  }

  /**
   * Handles one valid message in its own transaction, retried when the failure is transient; in the
   * message's trace, so that what its retries log carries it too.
   */
  public Verdict process(Submission submission) {
    try (TraceLogging.LogScope logging = TraceLogging.open(submission.trace())) {
      return retry.run(
          submission.key(),
          () ->
              QuarkusTransaction.requiringNew()
                  .call(() -> decider.decide(submission, Instant.now())));
    }
  }

  /**
   * Handles several messages in one transaction: each is claimed and applied as if alone, in {@link
   * Submission#LOCK_ORDER}; a second copy of a key in the same batch sees the first one's claim and
   * is a duplicate. If the transaction fails for any reason, nothing of it stays and every message
   * is handled again in a transaction of its own, so one bad message never costs the others more
   * than a second try. Decisions come back in the order submitted.
   */
  public List<Decision> processAll(List<Submission> batch) {
    if (batch.size() == 1) {
      return List.of(processAlone(batch.get(0)));
    }
    List<Submission> ordered = new ArrayList<>(batch);
    ordered.sort(Submission.LOCK_ORDER);
    try {
      Map<Submission, Verdict> verdicts =
          QuarkusTransaction.requiringNew().call(() -> decider.decideAll(ordered, Instant.now()));
      return batch.stream().map(s -> Decision.of(verdicts.get(s))).toList();
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
