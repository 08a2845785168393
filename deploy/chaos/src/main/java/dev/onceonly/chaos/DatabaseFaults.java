package dev.onceonly.chaos;

/**
 * Scenario 3: PostgreSQL stopped mid-stream (10 s trimmed, 60 s full) and started again, then every
 * backend of the services terminated ({@code pg_terminate_backend}). Consumers cannot claim
 * meanwhile and relays cannot lease or complete; afterwards both must go on with every message and
 * every row, each effect once.
 */
final class DatabaseFaults extends Scenario {

  DatabaseFaults() {
    super(3, "PostgreSQL stopped mid-stream; all backends terminated");
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    Thread.sleep(lab.mode.window().toMillis() / 4);
    lab.postgres.stop();
    lab.faults.incrementAndGet();
    Lab.say("PostgreSQL stopped for %d s", lab.mode.databaseDown().toSeconds());
    Thread.sleep(lab.mode.databaseDown().toMillis());
    lab.postgres.startAgain();
    Lab.say("PostgreSQL started again");
    Thread.sleep(lab.mode.window().toMillis() / 4);
    int terminated = lab.postgres.terminateServiceBackends();
    lab.faults.incrementAndGet();
    Lab.say("terminated %d backends of the services", terminated);
    notes.add(
        "PostgreSQL down "
            + lab.mode.databaseDown().toSeconds()
            + " s; "
            + terminated
            + " backends terminated");
  }
}
