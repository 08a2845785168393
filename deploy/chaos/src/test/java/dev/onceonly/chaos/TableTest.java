package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {

  @Test
  void rowPerScenarioWithVerdictAndRecovery() {
    String table =
        Table.render(
            List.of(
                new Scenario.Result(
                    1, "kill -9", 568, 3, 0, 0, Duration.ofMillis(812), true, List.of(), List.of()),
                new Scenario.Result(
                    3, "postgres", 365, 2, 4, 1, null, false, List.of("4 lost"), List.of())));

    assertThat(table.lines())
        .containsExactly(
            Table.HEADER,
            Table.RULE,
            "| 1 | kill -9 | 568 | 3 | 0 | 0 | 0.8 s | PASS |",
            "| 3 | postgres | 365 | 2 | 4 | 1 | not recovered | FAIL |");
  }
}
