package dev.onceonly.chaos;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario 6: a session holds back xmin (a REPEATABLE READ transaction that has read the outbox,
 * left open: 30 s trimmed, 5 min full) while the stream flows. Claims and deliveries must keep
 * working meanwhile, the relay's {@code onceonly_db_oldest_transaction_age_seconds} must show the
 * transaction's age, and the relay must drain afterwards.
 */
final class XminHold extends Scenario {

  static final String METRIC = "onceonly_db_oldest_transaction_age_seconds";
  private double seen = -1;
  private long creditedDuringHold = -1;
  private long deliveredDuringHold = -1;

  XminHold() {
    super(6, "a transaction holds back xmin");
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    Thread.sleep(lab.mode.window().toMillis() / 6);
    try (Connection c = lab.db.connect();
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
      s.executeQuery("SELECT count(*) FROM outbox.outbox").close();
      lab.faults.incrementAndGet();
      Lab.say("holding a REPEATABLE READ transaction for %d s", lab.mode.xminHeld().toSeconds());
      long end = System.nanoTime() + lab.mode.xminHeld().toNanos();
      while (System.nanoTime() < end) {
        seen = Math.max(seen, Calls.metric(lab.fleet.relayManagementUrl(0), METRIC));
        Thread.sleep(1_000);
      }
      var f = lab.db.figures();
      creditedDuringHold = f.getOrDefault("credited", 0L);
      deliveredDuringHold = f.getOrDefault("outbox_delivered", 0L);
      c.commit();
    }
  }

  @Override
  List<String> checks(Lab lab, Run run) {
    List<String> problems = new ArrayList<>();
    long held = lab.mode.xminHeld().toSeconds();
    int orders = run.sent().summary().uniqueOrders();
    notes.add(
        String.format(
            "%s reached %.0f s (held %d s); by the end of the hold %d of %d orders credited, %d"
                + " outbox rows delivered",
            METRIC, seen, held, creditedDuringHold, orders, deliveredDuringHold));
    if (seen < held * 0.8) {
      problems.add(METRIC + " showed at most " + seen + " s for a transaction held " + held + " s");
    }
    if (creditedDuringHold < orders || deliveredDuringHold < orders) {
      problems.add("claims or deliveries stalled while xmin was held");
    }
    return problems;
  }
}
