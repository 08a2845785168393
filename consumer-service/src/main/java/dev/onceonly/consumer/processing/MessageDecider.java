package dev.onceonly.consumer.processing;

import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Outcome;
import dev.onceonly.consumer.TraceLogging;
import dev.onceonly.consumer.claim.ClaimRepository;
import dev.onceonly.consumer.claim.ClaimResult;
import dev.onceonly.consumer.claim.ConflictRepository;
import dev.onceonly.consumer.claim.RejectionRepository;
import dev.onceonly.consumer.config.ConsumerConfig;
import dev.onceonly.consumer.processing.EventWindows.Window;
import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.LoyaltyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Decides messages inside the caller's transaction: by the event's date ({@link EventWindows}) it
 * is refused as {@code future} or {@code stale}, decided by the natural keys alone, or claimed; a
 * claimed message's effect runs only if the claim took, and a claim that took although the effect's
 * natural key was taken is a copy dated another day, found in the partition of its day.
 */
@ApplicationScoped
public class MessageDecider {

  private static final Logger LOG = Logger.getLogger(MessageDecider.class);

  private final Map<ConsumerName, MessageEffect> effects = new EnumMap<>(ConsumerName.class);
  private final ClaimRepository claims;
  private final ConflictRepository conflicts;
  private final RejectionRepository rejections;
  private final EventWindows windows;

  public MessageDecider(
      Instance<MessageEffect> effects,
      ClaimRepository claims,
      ConflictRepository conflicts,
      RejectionRepository rejections,
      ConsumerConfig config) {
    effects.forEach(e -> this.effects.put(e.consumer(), e));
    this.claims = claims;
    this.conflicts = conflicts;
    this.rejections = rejections;
    ConsumerConfig.Claims c = config.claims();
    this.windows = new EventWindows(c.retention(), c.replayHorizon(), c.maxFutureSkew());
  }

  /** The effect of {@code consumer}; refuses an event type the consumer does not handle. */
  MessageEffect effectOf(ConsumerName consumer, DecodedEvent decoded) {
    MessageEffect effect = effects.get(consumer);
    if (effect == null || !consumer.handles(decoded.event().type())) {
      throw new IllegalArgumentException(
          "consumer " + consumer.value() + " does not handle " + decoded.event().type());
    }
    return effect;
  }

  /**
   * Decides one message in the caller's transaction, in its trace: the outbox rows its effect
   * writes carry that trace, and every line logged meanwhile its ids ({@link TraceLogging}).
   */
  Outcome decide(Submission s, Instant now) throws SQLException {
    try (TraceLogging.LogScope logging = TraceLogging.open(s.trace())) {
      MessageEffect effect = effectOf(s.consumer(), s.decoded());
      Window window = windows.of(s.decoded().event().occurredAt(), now);
      if (window != Window.CLAIM || !effect.needsClaim()) {
        return withoutClaim(effect, s, window, now);
      }
      LoyaltyEvent event = s.decoded().event();
      LocalDate day = EventWindows.day(event.occurredAt());
      ClaimResult claim =
          claims.claim(
              effect.consumer().value(), event.messageKey(), s.decoded().payloadSha256(), day);
      return afterClaim(effect, s, claim, day);
    }
  }

  /**
   * Decides several messages in the caller's transaction, in the order given (the lock order): the
   * first copy of every key to claim is claimed in one statement; a later copy of a key in the same
   * batch claims alone, after the first, and sees its claim.
   */
  Map<Submission, Outcome> decideAll(List<Submission> ordered, Instant now) throws SQLException {
    Map<Submission, Outcome> outcomes = new IdentityHashMap<>();
    Map<Submission, ClaimResult> claimed = new IdentityHashMap<>();
    List<Submission> firsts = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (Submission s : ordered) {
      MessageEffect effect = effectOf(s.consumer(), s.decoded());
      boolean claimable =
          effect.needsClaim() && windows.of(s.decoded().event().occurredAt(), now) == Window.CLAIM;
      if (claimable && keys.add(s.consumer().value() + "\n" + s.decoded().event().messageKey())) {
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
      ClaimResult claim = claimed.get(s);
      if (claim == null) {
        outcomes.put(s, decide(s, now));
        continue;
      }
      try (TraceLogging.LogScope logging = TraceLogging.open(s.trace())) {
        outcomes.put(
            s,
            afterClaim(
                effectOf(s.consumer(), s.decoded()),
                s,
                claim,
                EventWindows.day(s.decoded().event().occurredAt())));
      }
    }
    return outcomes;
  }

  private ClaimRepository.Request request(Submission s) {
    LoyaltyEvent event = s.decoded().event();
    return new ClaimRepository.Request(
        s.consumer().value(),
        event.messageKey(),
        s.decoded().payloadSha256(),
        EventWindows.day(event.occurredAt()));
  }

  /** A message not claimed: refused by its date, or decided by its effect's natural keys. */
  private Outcome withoutClaim(MessageEffect effect, Submission s, Window window, Instant now)
      throws SQLException {
    LoyaltyEvent event = s.decoded().event();
    String consumer = effect.consumer().value();
    switch (window) {
      case FUTURE:
        rejections.record(
            consumer,
            event.messageKey(),
            "future",
            "event of "
                + event.occurredAt()
                + " is dated more than "
                + windows.maxFutureSkew()
                + " after this service's clock ("
                + now
                + "); fix the producer's clock and publish it again");
        return Outcome.REJECTED;
      case STALE:
        // Whatever its kind (ARCHITECTURE.md §9): beyond window + horizon an event is rejected,
        // never applied and never a failed batch. A profile takes no claim, yet a version dated
        // before the horizon, or before any calendar PostgreSQL knows, is no more to be trusted.
        rejections.record(
            consumer,
            event.messageKey(),
            "stale",
            "event of "
                + event.occurredAt()
                + " is older than the claim window ("
                + windows.claimWindow()
                + ") plus the replay horizon ("
                + windows.replayHorizon()
                + "): the keys that would stop a second effect may be gone");
        return Outcome.REJECTED;
      default:
        return apply(effect, s, false);
    }
  }

  /**
   * Applies the effect; the caller holds the message's trace ({@link TraceLogging}), so the outbox
   * rows it writes carry that trace.
   */
  private static Outcome apply(MessageEffect effect, Submission s, boolean claimedNow)
      throws SQLException {
    return effect.apply(s.decoded().event(), claimedNow);
  }

  /** The effect when the claim took; otherwise a duplicate, or a conflict quarantined. */
  private Outcome afterClaim(MessageEffect effect, Submission s, ClaimResult claim, LocalDate day)
      throws SQLException {
    return switch (claim) {
      case CLAIMED -> {
        Outcome outcome = apply(effect, s, true);
        yield outcome == Outcome.DUPLICATE ? claimedButDecidedBefore(effect, s, day) : outcome;
      }
      case DUPLICATE -> Outcome.DUPLICATE;
      case CONFLICT -> quarantine(effect, s);
    };
  }

  /**
   * The claim took, but the effect's natural key was taken already: the key was decided before,
   * under a claim dated another day (a copy with a different payload, since the date is part of it)
   * or under one that has expired. The first is a conflict like any other: this claim is taken back
   * and the copy quarantined. The second is a duplicate the natural key caught.
   */
  private Outcome claimedButDecidedBefore(MessageEffect effect, Submission s, LocalDate day)
      throws SQLException {
    String consumer = effect.consumer().value();
    String key = s.decoded().event().messageKey();
    Optional<String> other = claims.fingerprintOnAnotherDay(consumer, key, day);
    if (other.isPresent() && !other.get().equals(s.decoded().payloadSha256())) {
      claims.release(consumer, key, day);
      return quarantine(effect, s);
    }
    LOG.warnf("%s: natural key already holds %s: its claim has expired", consumer, key);
    return Outcome.DUPLICATE;
  }

  private Outcome quarantine(MessageEffect effect, Submission s) throws SQLException {
    conflicts.record(
        effect.consumer().value(),
        s.decoded().event().messageKey(),
        s.decoded().payloadSha256(),
        s.payload());
    return Outcome.CONFLICT;
  }
}
