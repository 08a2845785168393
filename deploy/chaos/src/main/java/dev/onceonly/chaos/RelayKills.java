package dev.onceonly.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Scenario 2: an outbox-relay killed with SIGKILL while it holds leases and has provider calls in
 * flight (the sandbox answers after 1.5 s, so calls are still open when the kill lands: some took
 * their effect, none had its completion written), every 3 ± 1 s (the relay holding the most leases
 * at that moment), started again at once. The rows it held wait for their lease to expire (8 s) and
 * are sent again with the same key; the provider replays the effect instead of taking it twice.
 */
final class RelayKills extends Scenario {

  private int withLeases;

  RelayKills() {
    super(2, "kill -9 a relay holding leases, calls in flight");
  }

  @Override
  void before(Lab lab) throws Exception {
    lab.providerFaults("{\"latencyMs\": 1500}");
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    while (sleepUntil(
        System.nanoTime() + lab.jitter(Duration.ofSeconds(3), Duration.ofSeconds(1)).toNanos(),
        untilNanos)) {
      Map.Entry<ServiceProcess, Long> holder = awaitLeases(lab, untilNanos);
      ServiceProcess victim = holder.getKey();
      long held = holder.getValue();
      victim.kill9();
      lab.faults.incrementAndGet();
      if (held > 0) {
        withLeases++;
      }
      Lab.say("%s killed (SIGKILL) holding %d leased rows, starting it again", victim.name(), held);
      victim.start();
    }
  }

  /**
   * Waits (at most 5 s) until a running, ready relay holds leases it took itself; that relay and
   * how many it holds (a random ready one and 0 if none does in time).
   */
  private static Map.Entry<ServiceProcess, Long> awaitLeases(Lab lab, long untilNanos)
      throws Exception {
    long deadline = Math.min(untilNanos, System.nanoTime() + Duration.ofSeconds(5).toNanos());
    List<ServiceProcess> ready = List.of();
    do {
      ready = lab.fleet.relays.stream().filter(RelayKills::ready).toList();
      ServiceProcess most = null;
      long held = 0;
      for (ServiceProcess r : ready) {
        long n = lab.db.leasesTakenSince(r.name(), Fleet.RELAY_LEASE, r.startedAt());
        if (n > held) {
          most = r;
          held = n;
        }
      }
      if (most != null) {
        return Map.entry(most, held);
      }
      Thread.sleep(100);
    } while (System.nanoTime() < deadline);
    List<ServiceProcess> pool = ready.isEmpty() ? lab.fleet.relays : ready;
    return Map.entry(pool.get(lab.random.nextInt(pool.size())), 0L);
  }

  private static boolean ready(ServiceProcess relay) {
    try {
      return relay.alive() && relay.ready();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  void after(Lab lab) throws Exception {
    lab.providerFaults(null);
  }

  @Override
  List<String> checks(Lab lab, Run run) {
    notes.add(
        withLeases
            + " kills landed while the relay held leases; "
            + (run.observation() == null ? "?" : run.observation().figure("expired_leases"))
            + " leases expired and were taken over");
    return withLeases > 0 ? List.of() : List.of("no kill landed while the relay held leases");
  }
}
