package dev.onceonly.chaos;

import java.nio.file.Path;

/**
 * A scenario that needs engines of its own, not the shared private PostgreSQL and RabbitMQ node: a
 * RabbitMQ cluster, a PostgreSQL primary with a standby, a Kafka broker. It starts them and the
 * services it needs in {@link #run}, registers each with the stage's {@link Teardown}, judges the
 * stream and returns the row of the table. The suite runs these after the scenarios on the shared
 * engines, once those are stopped, so that the two never compete for ports or for the two cores.
 */
interface StandaloneScenario {

  /**
   * What a standalone scenario is given.
   *
   * @param root the repository (for the service jars)
   * @param runDir where processes write their logs
   * @param mode trimmed or full
   * @param seed the run's seed (a scenario derives its random choices from it)
   * @param portBase the suite's first port; a standalone scenario may use any port of the shared
   *     set, since the shared engines and fleet are stopped when it runs
   * @param teardown closes what the scenario started, also when the suite is interrupted
   */
  record Stage(Path root, Path runDir, Mode mode, long seed, int portBase, Teardown teardown) {}

  int number();

  String name();

  /**
   * Whether the trimmed set (what the build runs) includes it; the default is no, because each
   * standalone scenario starts engines and services of its own and the build has a time budget.
   * {@code --full} and {@code --only=} run it in any case.
   */
  default boolean inTrimmedSet() {
    return false;
  }

  /** Starts what it needs, runs the stream with its fault, judges; the row of the table. */
  Scenario.Result run(Stage stage) throws Exception;
}
