package dev.onceonly.internal.processing;

import dev.onceonly.api.Delivery;
import dev.onceonly.api.Outcome;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.claim.ClaimRepository;
import dev.onceonly.internal.claim.ClaimResult;
import dev.onceonly.internal.claim.ConflictRepository;
import dev.onceonly.internal.claim.RejectionRepository;
import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.messaging.TraceLogging;
import dev.onceonly.internal.processing.EventWindows.Window;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Decides messages inside the caller's transaction: by the event's date ({@link EventWindows}) it
 * is refused as {@code future} or {@code stale}, decided by the handler's natural keys alone, or
 * claimed; a claimed message's handler runs only if the claim took, and a claim that took although
 * the handler found its natural key taken is a copy dated another day, found in the partition of
 * its day.
 */
@Singleton
public class MessageDecider {

  private static final Logger LOG = Logger.getLogger(MessageDecider.class);

  private final ClaimRepository claims;
  private final ConflictRepository conflicts;
  private final RejectionRepository rejections;
  private final EventWindows windows;

  public MessageDecider(
      ClaimRepository claims,
      ConflictRepository conflicts,
      RejectionRepository rejections,
      OnceOnlyConfig config) {
    this.claims = claims;
    this.conflicts = conflicts;
    this.rejections = rejections;
    OnceOnlyConfig.Claims c = config.claims();
    this.windows = new EventWindows(c.retention(), c.replayHorizon(), c.maxFutureSkew());
  }

  /**
   * Decides one message in the caller's transaction, in its trace: the outbox rows its handler
   * writes carry that trace, and every line logged meanwhile its ids ({@link TraceLogging}).
   */
  Verdict decide(Submission s, Instant now) throws Exception {
    try (TraceLogging.LogScope logging = TraceLogging.open(s.trace())) {
      Window window = windows.of(s.decoded().occurredAt(), now);
      if (window != Window.CLAIM || !s.consumer().claims()) {
        return withoutClaim(s, window, now);
      }
      LocalDate day = EventWindows.day(s.decoded().occurredAt());
      ClaimResult claim = claims.claim(s.consumer().name(), s.key(), s.fingerprint(), day);
      return afterClaim(s, claim, day);
    }
  }

  /**
   * Decides several messages in the caller's transaction, in the order given (the lock order): the
   * first copy of every key to claim is claimed in one statement; a later copy of a key in the same
   * batch claims alone, after the first, and sees its claim.
   */
  Map<Submission, Verdict> decideAll(List<Submission> ordered, Instant now) throws Exception {
    Map<Submission, Verdict> verdicts = new IdentityHashMap<>();
    Map<Submission, ClaimResult> claimed = new IdentityHashMap<>();
    List<Submission> firsts = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (Submission s : ordered) {
      boolean claimable =
          s.consumer().claims() && windows.of(s.decoded().occurredAt(), now) == Window.CLAIM;
      if (claimable && keys.add(s.consumer().name() + "\n" + s.key())) {
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
        verdicts.put(s, decide(s, now));
        continue;
      }
      try (TraceLogging.LogScope logging = TraceLogging.open(s.trace())) {
        verdicts.put(s, afterClaim(s, claim, EventWindows.day(s.decoded().occurredAt())));
      }
    }
    return verdicts;
  }

  private ClaimRepository.Request request(Submission s) {
    return new ClaimRepository.Request(
        s.consumer().name(), s.key(), s.fingerprint(), EventWindows.day(s.decoded().occurredAt()));
  }

  /** A message not claimed: refused by its date, or decided by its handler's natural keys. */
  private Verdict withoutClaim(Submission s, Window window, Instant now) throws Exception {
    Instant occurredAt = s.decoded().occurredAt();
    switch (window) {
      case FUTURE:
        rejections.record(
            s.consumer().name(),
            s.key(),
            RejectionRepository.FUTURE,
            "event of "
                + occurredAt
                + " is dated more than "
                + windows.maxFutureSkew()
                + " after this service's clock ("
                + now
                + "); fix the producer's clock and publish it again");
        return Verdict.REJECTED;
      case STALE:
        // Whatever the consumer: beyond window + horizon an event is rejected, never applied and
        // never a failed batch. A consumer that takes no claim is refused too: a version dated
        // before the horizon, or before any calendar PostgreSQL knows, is no more to be trusted.
        rejections.record(
            s.consumer().name(),
            s.key(),
            RejectionRepository.STALE,
            "event of "
                + occurredAt
                + " is older than the claim window ("
                + windows.claimWindow()
                + ") plus the replay horizon ("
                + windows.replayHorizon()
                + "): the keys that would stop a second effect may be gone");
        return Verdict.REJECTED;
      default:
        return apply(s, false);
    }
  }

  /**
   * Runs the handler; the caller holds the message's trace ({@link TraceLogging}), so the outbox
   * rows it writes carry that trace.
   */
  private Verdict apply(Submission s, boolean claimedNow) throws Exception {
    ConsumerSpec consumer = s.consumer();
    Outcome outcome =
        consumer
            .handler()
            .handle(s.decoded().event(), new HandlerDelivery(s, claimedNow, rejections));
    if (outcome == null) {
      throw new IllegalStateException(
          consumer.name() + ": its handler answered null for " + s.key() + "; return an Outcome");
    }
    return switch (outcome.kind()) {
      case APPLIED -> Verdict.APPLIED;
      case DUPLICATE -> Verdict.DUPLICATE;
      case REJECTED -> {
        rejections.record(consumer.name(), s.key(), outcome.reason(), outcome.detail());
        yield Verdict.REJECTED;
      }
    };
  }

  /**
   * The handler's verdict when the claim took; otherwise a duplicate, or a conflict quarantined.
   */
  private Verdict afterClaim(Submission s, ClaimResult claim, LocalDate day) throws Exception {
    return switch (claim) {
      case CLAIMED -> {
        Verdict verdict = apply(s, true);
        yield verdict == Verdict.DUPLICATE ? claimedButDecidedBefore(s, day) : verdict;
      }
      case DUPLICATE -> Verdict.DUPLICATE;
      case CONFLICT -> quarantine(s);
    };
  }

  /**
   * The claim took, but the handler's natural key was taken already: the key was decided before,
   * under a claim dated another day (a copy with a different payload, since the date is part of it)
   * or under one that has expired. The first is a conflict like any other: this claim is taken back
   * and the copy quarantined. The second is a duplicate the natural key caught.
   */
  private Verdict claimedButDecidedBefore(Submission s, LocalDate day) throws SQLException {
    String consumer = s.consumer().name();
    Optional<String> other = claims.fingerprintOnAnotherDay(consumer, s.key(), day);
    if (other.isPresent() && !other.get().equals(s.fingerprint())) {
      claims.release(consumer, s.key(), day);
      return quarantine(s);
    }
    LOG.warnf("%s: natural key already holds %s: its claim has expired", consumer, s.key());
    return Verdict.DUPLICATE;
  }

  private Verdict quarantine(Submission s) throws SQLException {
    conflicts.record(s.consumer().name(), s.key(), s.fingerprint(), s.payload());
    return Verdict.CONFLICT;
  }

  /** The message as its handler sees it. */
  private record HandlerDelivery(Submission s, boolean claimed, RejectionRepository rejections)
      implements Delivery {

    @Override
    public String consumer() {
      return s.consumer().name();
    }

    @Override
    public String messageKey() {
      return s.key();
    }

    @Override
    public Instant occurredAt() {
      return s.decoded().occurredAt();
    }

    @Override
    public boolean rejectedBefore(String reason) throws SQLException {
      return rejections.rejectedBefore(s.consumer().name(), s.key(), reason);
    }
  }
}
