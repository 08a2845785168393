package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The trimmed chaos set in the build: every scenario against real processes (a private PostgreSQL
 * and RabbitMQ, two consumers, two relays, the sandbox), each verdict must pass. Skipped only where
 * the PostgreSQL or RabbitMQ binaries are not installed.
 */
class ChaosSuiteIT {

  @Test
  void everyScenarioOfTheTrimmedSetKeepsExactlyOnce() throws Exception {
    String absent = ChaosSuite.missingBinaries();
    assumeTrue(absent == null, () -> "chaos suite skipped: " + absent);
    Path root = Path.of(System.getProperty("onceonly.root", "../..")).toAbsolutePath().normalize();
    long seed = Long.getLong("chaos.seed", System.nanoTime() & 0xffffffffL);

    List<Scenario.Result> results =
        ChaosSuite.run(
            root,
            Mode.TRIMMED,
            Set.of(),
            seed,
            Integer.getInteger("chaos.port-base", ChaosSuite.DEFAULT_PORT_BASE));

    assertThat(results).hasSize(ChaosSuite.SCENARIOS.size());
    assertThat(results)
        .as("seed %d; table in deploy/chaos/target/chaos-run/table.md", seed)
        .allSatisfy(
            r ->
                assertThat(r.passed())
                    .as("scenario %d %s: %s", r.number(), r.name(), r.problems())
                    .isTrue());
  }
}
