package dev.onceonly.relay.operations;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.relay.audit.AuditAction;
import dev.onceonly.relay.audit.AuditRepository;
import dev.onceonly.relay.audit.AuditRepository.ReplayClock;
import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.logging.RowMdc;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.operations.OperationRefused.Reason;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The changes operators make: retry, cancel and replay. Each runs in one transaction with its audit
 * row, so a change is never without its audit entry, nor an entry without its change, and that
 * transaction commits durably (the relay's pool does not by default): once an operator has been
 * told a row is cancelled, no crash brings it back.
 */
@ApplicationScoped
public class OutboxOperations {

  private static final Logger LOG = Logger.getLogger(OutboxOperations.class);

  private final OutboxChangeRepository changes;
  private final OutboxQueryRepository queries;
  private final AuditRepository audit;
  private final RelayMetrics metrics;
  private final ObjectMapper json;
  private final ReplayPacing pacing;
  private final int idsShown;

  public OutboxOperations(
      OutboxChangeRepository changes,
      OutboxQueryRepository queries,
      AuditRepository audit,
      RelayMetrics metrics,
      ObjectMapper json,
      RelayConfig config) {
    this.changes = changes;
    this.queries = queries;
    this.audit = audit;
    this.metrics = metrics;
    this.json = json;
    this.pacing = new ReplayPacing(config.operations().replayRatePerSecond());
    this.idsShown = Math.max(0, config.operations().replayIdsShown());
  }

  /** Dead → pending, due now, with a fresh attempt budget; relays are woken at commit. */
  @Transactional
  public RowDetail retry(long id, String actor) {
    changes.commitDurably();
    String key = changes.retry(id).orElseThrow(() -> refused(id, AuditAction.RETRY));
    changes.wakeRelays();
    audit.record(actor, AuditAction.RETRY, id, null, 1, false, null);
    metrics.operatorAction(AuditAction.RETRY.value());
    try (RowMdc mdc = RowMdc.of(id, key)) {
      LOG.infof("%s retried outbox row %d (key %s): pending, due now", actor, id, key);
    }
    return queries.find(id).orElseThrow();
  }

  /** Pending or dead → cancelled: never delivered; unparks its ordering key. */
  @Transactional
  public RowDetail cancel(long id, String actor) {
    changes.commitDurably();
    String key = changes.cancel(id).orElseThrow(() -> refused(id, AuditAction.CANCEL));
    changes.wakeRelays(); // rows behind it on its ordering key may be due now
    audit.record(actor, AuditAction.CANCEL, id, null, 1, false, null);
    metrics.operatorAction(AuditAction.CANCEL.value());
    try (RowMdc mdc = RowMdc.of(id, key)) {
      LOG.infof("%s cancelled outbox row %d (key %s)", actor, id, key);
    }
    return queries.find(id).orElseThrow();
  }

  /**
   * Dead rows matching the filter (and among the order's ids, when it names rows) → pending, oldest
   * first, at most {@code limit}, paced at the replay rate (after any replay still being paced).
   * One replay at a time across all relays. A dry run changes nothing but its audit row, and lists
   * every row it selected: a confirm that sends those ids back replays exactly them, or fewer if
   * some are no longer dead, never a row the operator did not see.
   */
  @Transactional
  public ReplayOutcome replay(ReplayOrder order, String actor) {
    changes.commitDurably();
    if (!order.dryRun() && !changes.tryReplayLock()) {
      throw new OperationRefused(
          Reason.CONFLICT,
          "another replay is running right now; send this one again when it has finished"
              + " (replays run one at a time)");
    }
    long matched = changes.countDead(order.filter(), order.ids());
    ReplayClock clock = audit.replayClock();
    Instant start = pacing.start(clock.now(), clock.lastSlot());
    List<Long> ids;
    int selected;
    if (order.dryRun()) {
      ids = changes.firstDead(order.filter(), order.ids(), order.limit());
      selected = ids.size();
    } else {
      List<Long> moved =
          changes.replay(order.filter(), order.ids(), order.limit(), start, pacing.stepMicros());
      selected = moved.size();
      ids = List.copyOf(moved.subList(0, Math.min(moved.size(), idsShown)));
      if (!moved.isEmpty()) {
        changes.wakeRelays();
      }
    }
    Instant until = pacing.last(start, selected);
    audit.record(
        actor,
        AuditAction.REPLAY,
        null,
        filterJson(order),
        selected,
        order.dryRun(),
        order.dryRun() ? null : until);
    int changed = order.dryRun() ? 0 : selected;
    if (!order.dryRun()) {
      metrics.operatorAction(AuditAction.REPLAY.value());
    }
    LOG.infof(
        "%s %s: %d dead rows matched, %d %s, due until %s (first ids %s)",
        actor,
        order.dryRun() ? "dry-ran a replay" : "replayed",
        matched,
        selected,
        order.dryRun() ? "would move" : "moved to pending",
        until,
        ids.subList(0, Math.min(ids.size(), idsShown)));
    return new ReplayOutcome(matched, selected, changed, order.dryRun(), ids, until);
  }

  private OperationRefused refused(long id, AuditAction action) {
    return changes
        .status(id)
        .map(status -> new OperationRefused(Reason.CONFLICT, conflict(id, status, action)))
        .orElseGet(() -> new OperationRefused(Reason.NOT_FOUND, "no outbox row with id " + id));
  }

  static String conflict(long id, String status, AuditAction action) {
    String row = "outbox row " + id + " is " + status;
    if (action == AuditAction.RETRY) {
      switch (status) {
        case "pending":
        case "in_flight":
          return row + ": only dead rows can be retried, and this one is already being delivered";
        case "delivered":
          return row + ": only dead rows can be retried, and this one reached its provider";
        default:
          return row + ": only dead rows can be retried; a cancelled row is final";
      }
    }
    if ("in_flight".equals(status)) {
      return row
          + ": a provider call is running; cancel again once it has ended"
          + " (only pending and dead rows can be cancelled)";
    }
    return row + ": only pending and dead rows can be cancelled";
  }

  private String filterJson(ReplayOrder order) {
    OutboxFilter filter = order.filter();
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("status", "dead");
    putIfSet(values, "destination", filter.destination());
    putIfSet(values, "orderingKey", filter.orderingKey());
    putIfSet(values, "idempotencyKey", filter.idempotencyKey());
    putIfSet(values, "createdAfter", filter.createdAfter());
    putIfSet(values, "createdBefore", filter.createdBefore());
    values.put("limit", order.limit());
    if (order.ids() != null) {
      values.put("ids", order.ids());
    }
    try {
      return json.writeValueAsString(values);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the replay filter as JSON", e);
    }
  }

  private static void putIfSet(Map<String, Object> values, String name, Object value) {
    if (value != null) {
      values.put(name, value.toString());
    }
  }
}
