package dev.onceonly.relay.dispatch;

import dev.onceonly.relay.completion.Completer;
import dev.onceonly.relay.completion.Completion;
import dev.onceonly.relay.completion.CompletionQueue;
import dev.onceonly.relay.completion.Completions;
import dev.onceonly.relay.destination.Destinations.Route;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.logging.RowMdc;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * One relay's loop on a thread of its own: lease as many due rows as there is room for, per
 * destination ({@link Lane}: its own in-flight limit, breaker and rate limit), in one transaction
 * (from its {@link LeaseFloor} up, past the delivered rows' dead index entries), hand them to the
 * dispatcher, then wait until outcomes were written, a commit notifies, the next known row falls
 * due, a destination's cool-down or rate limit lets it go on, or the poll interval passes. Finished
 * attempts are written beside it by a {@link CompletionQueue}, which wakes the loop after each
 * write (room was freed; a row of the same ordering key, or a retry, may have become due).
 */
public final class Poller {

  private static final Logger LOG = Logger.getLogger(Poller.class);
  private static final long MIN_WAIT_MILLIS = 25;
  private static final long BUSY_WAIT_MILLIS = 20;
  private static final Duration FLOOR_REFRESH = Duration.ofSeconds(1);

  private final String relayId;
  private final PollerSettings settings;
  private final OutboxRepository repository;
  private final Dispatcher dispatcher;
  private final Wakeup wakeup = new Wakeup();
  private final CompletionQueue finished;
  private final LeaseFloor floor = new LeaseFloor(FLOOR_REFRESH);
  // Calls, not row ids: a row whose lease ran out while its call was still out is leased again and
  // has two calls in flight; each one's outcome is written (the fence refuses the stale one) and
  // each frees its room.
  private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
  private final Map<String, Lane> lanes = new LinkedHashMap<>();
  private volatile boolean leasing = true;
  private volatile boolean running;
  private volatile Instant heartbeat = Instant.now();
  private long quietUntilNanos;
  private Thread thread;

  private record Call(LeasedRow row, Instant startedAt, CompletableFuture<Completion> future) {}

  Poller(
      String relayId,
      PollerSettings settings,
      List<Route> routes,
      OutboxRepository repository,
      Dispatcher dispatcher,
      Completer completer) {
    this.relayId = relayId;
    this.settings = settings;
    this.repository = repository;
    this.dispatcher = dispatcher;
    routes.forEach(r -> lanes.put(r.name(), new Lane(r, settings.batchSize())));
    this.finished =
        new CompletionQueue(
            written -> {
              try {
                completer.complete(written);
              } finally {
                written.forEach(c -> release(c.row()));
              }
            },
            settings.batchSize() * 2,
            settings.coalesce(),
            "outbox-completer-" + relayId,
            wakeup::signal);
  }

  public String relayId() {
    return relayId;
  }

  /** When the loop last went round; the liveness check reads it. */
  public Instant heartbeat() {
    return heartbeat;
  }

  public synchronized void start() {
    running = true;
    finished.start();
    thread = new Thread(this::loop, "outbox-poller-" + relayId);
    thread.setDaemon(true);
    thread.start();
  }

  /** The id this poller's leases start at (see {@link LeaseFloor}). */
  long leaseFloor() {
    return floor.value();
  }

  /** Makes the loop look for work now (a commit notified, or a call finished). */
  public void wake() {
    wakeup.signal();
  }

  /** Stops or resumes leasing; calls in flight still complete. Used by shutdown and operators. */
  public void leasing(boolean on) {
    leasing = on;
    wakeup.signal();
  }

  /**
   * Graceful stop: no more leases, wait up to {@code timeout} for calls in flight, write what
   * finished, and release the rest back to pending (their {@code attempts} stay counted).
   */
  public void stop(Duration timeout) {
    leasing(false);
    awaitCalls(timeout);
    running = false;
    wakeup.signal();
    try {
      if (thread != null) {
        thread.join(TimeUnit.SECONDS.toMillis(30));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Completion> released = new ArrayList<>();
    Instant now = Instant.now();
    String reason = "released by " + relayId + " at shutdown after waiting " + timeout;
    for (Call call : List.copyOf(inFlight)) {
      if (inFlight.remove(call)) {
        call.future().cancel(true);
        released.add(Completions.released(call.row(), relayId, reason, call.startedAt(), now));
      }
    }
    finished.stop(released);
    if (!released.isEmpty()) {
      LOG.infof("relay %s released %d unfinished outbox rows", relayId, released.size());
    }
  }

  private void awaitCalls(Duration timeout) {
    CompletableFuture<?>[] calls =
        inFlight.stream().map(Call::future).toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(calls).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      LOG.debugf("relay %s: calls still in flight after %s", relayId, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop() {
    while (running) {
      heartbeat = Instant.now();
      try {
        long waitMillis = leasing ? leaseAndDispatch() : settings.pollInterval().toMillis();
        if (waitMillis > 0) {
          wakeup.await(waitMillis);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.warnf(e, "relay %s: outbox poll failed; trying again", relayId);
        pause();
      }
    }
  }

  /** Leases and dispatches one batch; returns how long to wait before the next look. */
  private long leaseAndDispatch() throws InterruptedException {
    // After a lease that did not fill its batch, the next one starts settings.coalesce() after it
    // at the soonest: commits that notify meanwhile are taken by one lease instead of one each.
    long quiet = quietUntilNanos - System.nanoTime();
    if (quiet > 0) {
      TimeUnit.NANOSECONDS.sleep(quiet);
    }
    long pollMillis = settings.pollInterval().toMillis();
    long now = System.nanoTime();
    // A row holds its destination's room until its outcome is written, not just until its call
    // returns; a destination without room (or whose breaker is open) is not asked for rows.
    Map<String, Integer> wanted = new LinkedHashMap<>();
    for (Lane lane : lanes.values()) {
      int n = lane.wanted(settings.batchSize(), now);
      if (n > 0) {
        wanted.put(lane.name(), n);
      }
    }
    if (wanted.isEmpty()) {
      return Math.min(pollMillis, blockedMillis(now));
    }
    if (floor.stale()) {
      floor.update(repository.idBounds());
    }
    long leaseStarted = System.nanoTime();
    List<LeasedRow> rows =
        repository.lease(
            relayId, wanted, floor.value(), settings.leaseDuration(), settings.ordering());
    Map<String, Integer> got = new HashMap<>();
    rows.forEach(r -> got.merge(r.kind(), 1, Integer::sum));
    boolean filled = false;
    for (Map.Entry<String, Integer> asked : wanted.entrySet()) {
      int leased = got.getOrDefault(asked.getKey(), 0);
      lanes.get(asked.getKey()).leased(leased, asked.getValue(), leaseStarted);
      filled |= leased >= asked.getValue();
    }
    rows.forEach(this::dispatch);
    if (filled) {
      return 0; // there may be more
    }
    quietUntilNanos = leaseStarted + settings.coalesce().toNanos();
    if (!rows.isEmpty()) {
      // Writing these calls' outcomes wakes the loop, and so does the next commit's NOTIFY. While
      // rows keep coming, look again soon even without either: a late notification (one stalled
      // deliveries for 870 ms in the benchmark) then costs at most this, not a poll interval.
      return Math.min(pollMillis, BUSY_WAIT_MILLIS);
    }
    long longest = Math.min(pollMillis, blockedMillis(now));
    OptionalLong due = repository.millisUntilNextDue(wanted.keySet(), settings.ordering());
    if (due.isEmpty()) {
      return longest;
    }
    if (due.getAsLong() <= 0 && floor.update(repository.idBounds())) {
      return 0; // a due row lay below the floor: a late commit, or a row sent back by an operator
    }
    return Math.min(longest, Math.max(MIN_WAIT_MILLIS, due.getAsLong()));
  }

  /** How long until a destination held back by its breaker or rate limit may lease again. */
  private long blockedMillis(long nanoTime) {
    long soonest = Long.MAX_VALUE;
    for (Lane lane : lanes.values()) {
      soonest = Math.min(soonest, lane.nanosUntilUnblocked(nanoTime));
    }
    return soonest == Long.MAX_VALUE
        ? Long.MAX_VALUE
        : Math.max(1, TimeUnit.NANOSECONDS.toMillis(soonest) + 1);
  }

  /** The row no longer holds its destination's room (its outcome is written, or given up). */
  private void release(LeasedRow row) {
    Lane lane = lanes.get(row.kind());
    if (lane != null) {
      lane.released(1);
    }
  }

  private void dispatch(LeasedRow row) {
    CompletableFuture<Completion> future = dispatcher.dispatch(row, relayId);
    Call call = new Call(row, Instant.now(), future);
    inFlight.add(call);
    future.whenComplete(
        (completion, error) -> {
          if (!inFlight.remove(call)) {
            return; // released by stop()
          }
          if (completion != null) {
            // Its lease is held until the outcome is written: the room it frees, or the row it
            // makes due, appears only then, and the writer wakes the loop after each write.
            finished.add(completion);
            return;
          }
          try (RowMdc mdc = RowMdc.of(row.id(), row.idempotencyKey())) {
            LOG.errorf(
                error,
                "relay %s: dispatch of outbox row %d (key %s) failed",
                relayId,
                row.id(),
                row.idempotencyKey());
          }
          release(row);
          wakeup.signal();
        });
  }

  private void pause() {
    try {
      wakeup.await(Math.min(1000, settings.pollInterval().toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }
}
