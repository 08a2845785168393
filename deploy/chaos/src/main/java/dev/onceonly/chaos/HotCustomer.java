package dev.onceonly.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Scenario 8: one hot customer with half of the stream's orders, so that many claim transactions
 * update the same balance row at once across both consumers. No transaction may fail (no deadlock,
 * nothing requeued or dead-lettered for a transient reason), and the hot balance must be exact.
 */
final class HotCustomer extends Scenario {

  static final String HOT = "cust-0000";
  private static final String SQL_HOT_ORDERS =
      "SELECT 'hot', count(*) FROM loyalty.point_ledger WHERE customer_id = '"
          + HOT
          + "' AND order_id IS NOT NULL";

  private final List<Long> logFrom = new ArrayList<>();

  HotCustomer() {
    super(8, "one hot customer with half of the stream");
  }

  /** Half of all orders: the first round gives every customer one, the rest mostly go hot. */
  @Override
  Traffic.Spec spec(Lab lab) {
    int orders = lab.mode.orders();
    int customers = lab.mode.customers();
    double share = orders / (2.0 * (orders - customers));
    return new Traffic.Spec(customers, orders, share, lab.random.nextLong());
  }

  @Override
  void before(Lab lab) throws Exception {
    logFrom.clear();
    for (ServiceProcess c : lab.fleet.consumers) {
      logFrom.add(c.logSize());
    }
  }

  @Override
  void inject(Lab lab, long untilNanos) {}

  @Override
  List<String> checks(Lab lab, Run run) throws Exception {
    long hot = lab.db.counts(SQL_HOT_ORDERS).getOrDefault("hot", 0L);
    lab.faults.set((int) hot);
    notes.add(hot + " of " + run.sent().summary().uniqueOrders() + " orders on " + HOT);
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < logFrom.size(); i++) {
      ServiceProcess c = lab.fleet.consumers.get(i);
      for (Map.Entry<String, String> sign :
          Map.of(
                  "deadlock", "deadlock",
                  "transient", "failed for a transient reason",
                  "dead-lettered", "failed, dead-lettering")
              .entrySet()) {
        long lines = c.logLinesContaining(logFrom.get(i), sign.getValue());
        if (lines > 0) {
          problems.add(c.name() + " logged " + lines + " lines: " + sign.getKey());
        }
      }
    }
    return problems;
  }
}
