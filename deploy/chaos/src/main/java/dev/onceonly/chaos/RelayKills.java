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
      Map.Entry<String, Long> holder = awaitLeases(lab, untilNanos);
      ServiceProcess victim =
          lab.fleet.relays.stream()
              .filter(r -> r.name().equals(holder.getKey()))
              .findFirst()
              .orElse(lab.fleet.relays.get(lab.random.nextInt(2)));
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

  /** Waits (at most 5 s) until a relay holds leased rows; the one holding most, and how many. */
  private static Map.Entry<String, Long> awaitLeases(Lab lab, long untilNanos) throws Exception {
    long deadline = Math.min(untilNanos, System.nanoTime() + Duration.ofSeconds(5).toNanos());
    do {
      Map<String, Long> owners = lab.db.counts(ChaosDb.SQL_IN_FLIGHT_BY_OWNER);
      var most = owners.entrySet().stream().max(Map.Entry.comparingByValue());
      if (most.isPresent()) {
        return most.get();
      }
      Thread.sleep(100);
    } while (System.nanoTime() < deadline);
    return Map.entry("none", 0L);
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
