package dev.onceonly.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 10: a bulk replay through the operator API while the relay drains. The receipts API
 * refuses every call with a final 422 while the orders flow, so every receipt row goes dead on its
 * first attempt (a 5xx would not do: the destination's circuit breaker keeps rows waiting through
 * an outage instead of burning their attempts, see docs/destinations.md); the fault is lifted, the
 * redemptions go out (their payout rows are what the relays drain meanwhile), and an operator
 * replays the dead rows: a dry run first (it must match them all and change none), then the replay,
 * in calls of at most 1000 rows. Each replayed row must end delivered and the provider take each
 * key's effect once.
 */
final class BulkReplay extends Scenario {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SQL_DEAD_RECEIPTS =
      "SELECT 'dead', count(*) FROM outbox.outbox WHERE kind = 'send_receipt' AND status = 'dead'";

  private final CountDownLatch deadRows = new CountDownLatch(1);
  private long dead;
  private long dryMatched = -1;
  private long dryChanged = -1;
  private long replayed;

  BulkReplay() {
    super(10, "bulk replay (operator API) while the relay drains");
  }

  @Override
  void before(Lab lab) throws Exception {
    lab.providerFaults("{\"receipts\": {\"errorRate\": 1.0, \"errorStatus\": 422}}");
  }

  /** Waits until every receipt row is dead, then lifts the fault. */
  @Override
  void betweenPhases(Lab lab) throws Exception {
    long deadline = System.nanoTime() + lab.mode.drain().toNanos();
    int orders = -1;
    while (System.nanoTime() < deadline) {
      dead = lab.db.counts(SQL_DEAD_RECEIPTS).getOrDefault("dead", 0L);
      orders = (int) (long) lab.db.figures().getOrDefault("credited", 0L);
      if (dead > 0 && dead >= orders) {
        break;
      }
      Thread.sleep(500);
    }
    Lab.say("%d receipt rows dead (refused with 422); provider healthy again", dead);
    lab.providerFaults(null);
    deadRows.countDown();
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    if (!deadRows.await(
        lab.mode.drain().toSeconds() + lab.mode.window().toSeconds(), TimeUnit.SECONDS)) {
      return;
    }
    JsonNode dry = replay(lab, true);
    dryMatched = dry.path("matched").asLong();
    dryChanged = dry.path("changed").asLong();
    Lab.say("dry run: %d dead rows match, %d changed", dryMatched, dryChanged);
    while (true) {
      JsonNode r = replay(lab, false);
      long changed = r.path("changed").asLong();
      replayed += changed;
      if (changed == 0 || r.path("matched").asLong() <= changed) {
        break;
      }
    }
    lab.faults.set((int) replayed);
    Lab.say("replayed %d rows", replayed);
  }

  private static JsonNode replay(Lab lab, boolean dryRun) throws Exception {
    String body =
        "{\"status\": \"dead\", \"kind\": \"send_receipt\", \"dryRun\": "
            + dryRun
            + ", \"limit\": 1000}";
    return JSON.readTree(
        Calls.send(
            "POST",
            lab.fleet.relayApiUrl(0) + "/outbox/replay",
            body,
            Fleet.OPERATOR,
            lab.fleet.operatorPassword));
  }

  @Override
  List<String> checks(Lab lab, Run run) {
    List<String> problems = new ArrayList<>();
    int orders = run.sent().summary().uniqueOrders();
    notes.add(
        String.format(
            "%d receipt rows dead; dry run matched %d, changed %d; replayed %d",
            dead, dryMatched, dryChanged, replayed));
    if (dead != orders) {
      problems.add(dead + " receipt rows went dead, " + orders + " expected");
    }
    if (dryMatched != dead || dryChanged != 0) {
      problems.add("dry run matched " + dryMatched + " and changed " + dryChanged);
    }
    if (replayed != dead) {
      problems.add("replayed " + replayed + " of " + dead + " dead rows");
    }
    return problems;
  }

  @Override
  Duration spread(Lab lab) {
    return Duration.ZERO;
  }
}
