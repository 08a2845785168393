package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.claim.ClaimRepository;
import dev.onceonly.consumer.claim.ClaimResult;
import dev.onceonly.consumer.claim.ConflictRepository;
import dev.onceonly.consumer.claim.RejectionRepository;
import dev.onceonly.consumer.config.ConsumerConfig;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.LoyaltyEvent;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Claim + effect in one transaction (DESIGN §4): {@code INSERT ... ON CONFLICT DO NOTHING} on the
 * claim; the effect runs only if the insert took; a duplicate or conflict is decided by the stored
 * fingerprint. The caller acks only after this returns, that is after commit.
 */
@ApplicationScoped
public class IdempotentProcessor {

  private static final Logger LOG = Logger.getLogger(IdempotentProcessor.class);

  private final Map<ConsumerName, MessageEffect> effects = new EnumMap<>(ConsumerName.class);
  private final ClaimRepository claims;
  private final ConflictRepository conflicts;
  private final RejectionRepository rejections;
  private final TransactionRetry retry;
  private final Duration claimRetention;

  public IdempotentProcessor(
      Instance<MessageEffect> effects,
      ClaimRepository claims,
      ConflictRepository conflicts,
      RejectionRepository rejections,
      TransactionRetry retry,
      ConsumerConfig config) {
    effects.forEach(e -> this.effects.put(e.consumer(), e));
    this.claims = claims;
    this.conflicts = conflicts;
    this.rejections = rejections;
    this.retry = retry;
    this.claimRetention = config.claims().retention();
  }

  /** Handles one valid message in its own transaction, retried when the failure is transient. */
  public Outcome process(ConsumerName consumer, DecodedEvent decoded, String payload) {
    MessageEffect effect = effectOf(consumer, decoded);
    return retry.run(
        decoded.event().messageKey(),
        () -> QuarkusTransaction.requiringNew().call(() -> decide(effect, decoded, payload)));
  }

  /**
   * Handles several messages in one transaction (DESIGN §4.6): each is claimed and applied as if
   * alone, in {@link Submission#LOCK_ORDER}; a second copy of a key in the same batch sees the
   * first one's claim and is a duplicate. If the transaction fails for any reason, nothing of it
   * stays and every message is handled again in a transaction of its own, so one bad message never
   * costs the others more than a second try. Decisions come back in the order submitted.
   */
  public List<Decision> processAll(List<Submission> batch) {
    if (batch.size() == 1) {
      return List.of(processAlone(batch.get(0)));
    }
    List<Submission> ordered = new ArrayList<>(batch);
    ordered.sort(Submission.LOCK_ORDER);
    try {
      Map<Submission, Outcome> outcomes =
          QuarkusTransaction.requiringNew().call(() -> decideAll(ordered));
      return batch.stream().map(s -> Decision.of(outcomes.get(s))).toList();
    } catch (RuntimeException e) {
      LOG.debugf(e, "a transaction of %d messages failed, handling each alone", batch.size());
      return batch.stream().map(this::processAlone).toList();
    }
  }

  private Decision processAlone(Submission s) {
    try {
      return Decision.of(process(s.consumer(), s.decoded(), s.payload()));
    } catch (RuntimeException e) {
      return Decision.failed(e);
    }
  }

  private MessageEffect effectOf(ConsumerName consumer, DecodedEvent decoded) {
    MessageEffect effect = effects.get(consumer);
    if (effect == null || !consumer.handles(decoded.event().type())) {
      throw new IllegalArgumentException(
          "consumer " + consumer.value() + " does not handle " + decoded.event().type());
    }
    return effect;
  }

  /**
   * The batch's transaction: stale events are rejected, then the first copy of every key is claimed
   * in one statement, then each message in order is applied, found a duplicate or quarantined. A
   * later copy of a key in the same batch claims alone, after the first.
   */
  private Map<Submission, Outcome> decideAll(List<Submission> ordered) throws SQLException {
    Map<Submission, Outcome> outcomes = new IdentityHashMap<>();
    Map<Submission, ClaimResult> claimed = new IdentityHashMap<>();
    List<Submission> firsts = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (Submission s : ordered) {
      LoyaltyEvent event = s.decoded().event();
      if (!effectOf(s.consumer(), s.decoded()).needsClaim()) {
        continue;
      }
      if (isOlderThanClaimWindow(event)) {
        outcomes.put(s, rejectStale(s.consumer().value(), event));
      } else if (keys.add(s.consumer().value() + "\n" + event.messageKey())) {
        firsts.add(s);
      }
    }
    if (!firsts.isEmpty()) {
      List<ClaimResult> results = claims.claimAll(firsts.stream().map(this::request).toList());
      for (int i = 0; i < firsts.size(); i++) {
        claimed.put(firsts.get(i), results.get(i));
      }
    }
    for (Submission s : ordered) {
      if (outcomes.containsKey(s)) {
        continue;
      }
      MessageEffect effect = effectOf(s.consumer(), s.decoded());
      ClaimResult claim = claimed.get(s);
      outcomes.put(
          s,
          !effect.needsClaim() || claim == null
              ? decide(effect, s.decoded(), s.payload())
              : afterClaim(effect, s.decoded(), s.payload(), claim));
    }
    return outcomes;
  }

  private ClaimRepository.Request request(Submission s) {
    LoyaltyEvent event = s.decoded().event();
    return new ClaimRepository.Request(
        s.consumer().value(), event.messageKey(), s.decoded().payloadSha256(), eventDate(event));
  }

  private Outcome decide(MessageEffect effect, DecodedEvent decoded, String payload)
      throws SQLException {
    LoyaltyEvent event = decoded.event();
    if (!effect.needsClaim()) {
      return effect.apply(event);
    }
    String consumer = effect.consumer().value();
    if (isOlderThanClaimWindow(event)) {
      return rejectStale(consumer, event);
    }
    ClaimResult claim =
        claims.claim(consumer, event.messageKey(), decoded.payloadSha256(), eventDate(event));
    return afterClaim(effect, decoded, payload, claim);
  }

  /** The effect when the claim took; otherwise a duplicate, or a conflict quarantined. */
  private Outcome afterClaim(
      MessageEffect effect, DecodedEvent decoded, String payload, ClaimResult claim)
      throws SQLException {
    return switch (claim) {
      case CLAIMED -> effect.apply(decoded.event());
      case DUPLICATE -> Outcome.DUPLICATE;
      case CONFLICT -> {
        conflicts.record(
            effect.consumer().value(),
            decoded.event().messageKey(),
            decoded.payloadSha256(),
            payload);
        yield Outcome.CONFLICT;
      }
    };
  }

  private Outcome rejectStale(String consumer, LoyaltyEvent event) throws SQLException {
    rejections.record(
        consumer,
        event.messageKey(),
        "stale",
        "event of " + event.occurredAt() + " is older than the claim window " + claimRetention);
    return Outcome.REJECTED;
  }

  private static LocalDate eventDate(LoyaltyEvent event) {
    return event.occurredAt().atOffset(ZoneOffset.UTC).toLocalDate();
  }

  private boolean isOlderThanClaimWindow(LoyaltyEvent event) {
    return event.occurredAt().isBefore(Instant.now().minus(claimRetention));
  }
}
