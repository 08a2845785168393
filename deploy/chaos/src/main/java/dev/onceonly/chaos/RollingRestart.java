package dev.onceonly.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario 9: a rolling restart with SIGTERM, one instance at a time, each started again and ready
 * before the next goes: relay-1, relay-2, consumer-1, consumer-2. Calls take 300 ms, so relays are
 * stopped with rows leased. A graceful stop finishes or releases what it holds: no row may wait for
 * a lease to expire (every lease taken has its attempt written, none fenced off as lease_lost).
 */
final class RollingRestart extends Scenario {

  private final List<String> exits = new ArrayList<>();

  RollingRestart() {
    super(9, "rolling restart (SIGTERM) of both relays and consumers");
  }

  @Override
  void before(Lab lab) throws Exception {
    lab.providerFaults("{\"latencyMs\": 300}");
  }

  /** The restarts take longer than the window: the stream is spread over twice its length. */
  @Override
  Duration spread(Lab lab) {
    return lab.mode.window().multipliedBy(2);
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    List<ServiceProcess> order = new ArrayList<>(lab.fleet.relays);
    order.addAll(lab.fleet.consumers);
    long step = lab.mode.window().toNanos() / (order.size() + 1);
    for (ServiceProcess s : order) {
      Thread.sleep(step / 1_000_000);
      long t0 = System.nanoTime();
      int code = s.terminate(Duration.ofSeconds(30));
      lab.faults.incrementAndGet();
      s.start();
      s.awaitReady(Fleet.READY);
      exits.add(
          String.format(
              "%s exit %d, back in %.1f s", s.name(), code, (System.nanoTime() - t0) / 1e9));
      Lab.say("%s", exits.get(exits.size() - 1));
    }
  }

  @Override
  void after(Lab lab) throws Exception {
    lab.providerFaults(null);
  }

  @Override
  List<String> checks(Lab lab, Run run) {
    notes.add(String.join("; ", exits));
    List<String> problems = new ArrayList<>();
    if (run.observation() != null) {
      long expired = run.observation().figure("expired_leases");
      long fenced = run.observation().figure("lease_lost");
      if (expired != 0 || fenced != 0) {
        problems.add(
            expired
                + " leases left to expire and "
                + fenced
                + " completions fenced off (lease_lost)");
      }
      notes.add(run.observation().figure("attempts") + " attempts, every lease written back");
    }
    return problems;
  }
}
