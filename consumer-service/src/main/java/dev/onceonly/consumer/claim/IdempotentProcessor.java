package dev.onceonly.consumer.claim;

import dev.onceonly.consumer.config.ConsumerConfig;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.LoyaltyEvent;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.Map;

/**
 * Claim + effect in one transaction (DESIGN §4): {@code INSERT ... ON CONFLICT DO NOTHING} on the
 * claim; the effect runs only if the insert took; a duplicate or conflict is decided by the stored
 * fingerprint. The caller acks only after this returns, that is after commit.
 */
@ApplicationScoped
public class IdempotentProcessor {

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
    MessageEffect effect = effects.get(consumer);
    if (effect == null || !consumer.handles(decoded.event().type())) {
      throw new IllegalArgumentException(
          "consumer " + consumer.value() + " does not handle " + decoded.event().type());
    }
    return retry.run(
        decoded.event().messageKey(),
        () -> QuarkusTransaction.requiringNew().call(() -> decide(effect, decoded, payload)));
  }

  private Outcome decide(MessageEffect effect, DecodedEvent decoded, String payload)
      throws SQLException {
    LoyaltyEvent event = decoded.event();
    if (!effect.needsClaim()) {
      return effect.apply(event);
    }
    String consumer = effect.consumer().value();
    String key = event.messageKey();
    if (isOlderThanClaimWindow(event)) {
      rejections.record(
          consumer,
          key,
          "stale",
          "event of " + event.occurredAt() + " is older than the claim window " + claimRetention);
      return Outcome.REJECTED;
    }
    ClaimResult claim =
        claims.claim(
            consumer,
            key,
            decoded.payloadSha256(),
            event.occurredAt().atOffset(ZoneOffset.UTC).toLocalDate());
    return switch (claim) {
      case CLAIMED -> effect.apply(event);
      case DUPLICATE -> Outcome.DUPLICATE;
      case CONFLICT -> {
        conflicts.record(consumer, key, decoded.payloadSha256(), payload);
        yield Outcome.CONFLICT;
      }
    };
  }

  private boolean isOlderThanClaimWindow(LoyaltyEvent event) {
    return event.occurredAt().isBefore(Instant.now().minus(claimRetention));
  }
}
