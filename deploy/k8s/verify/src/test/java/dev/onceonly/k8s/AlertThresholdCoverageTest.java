package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The promtool unit tests pin every alert down (deploy/k8s/README.md "Alerts"): each threshold and
 * each {@code for:} of deploy/prometheus/onceonly-rules.yml, moved a little either way ({@link
 * RuleMutants}), makes {@code promtool test rules} fail. A test that only checks that an alert
 * fires somewhere well past its threshold would let such a change through.
 */
class AlertThresholdCoverageTest {

  @Test
  void movingAnyThresholdOrDurationFailsAPromtoolTest() throws IOException {
    String rules = Repo.read(MonitoringAsCodeTest.RULES);
    String tests = Repo.read(MonitoringAsCodeTest.TESTS);
    List<RuleMutants.Mutant> mutants = RuleMutants.of(rules);
    Set<String> alerts =
        mutants.stream()
            .map(RuleMutants.Mutant::alert)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(alerts)
        .as("every alert has a threshold or a duration to move")
        .containsAll(PromQl.alerts());

    // One promtool run over one copy of the tests per mutant, each beside its changed rules and
    // holding the tests of the changed alert (the others cannot notice the change).
    Path dir = Repo.path("deploy/k8s/verify/target/rule-mutants");
    List<String> args = new ArrayList<>(List.of("test", "rules"));
    for (int i = 0; i < mutants.size(); i++) {
      Path copy = dir.resolve("m" + i);
      Files.createDirectories(copy.resolve("tests"));
      Files.writeString(copy.resolve("onceonly-rules.yml"), mutants.get(i).rules());
      Files.writeString(
          copy.resolve("tests/onceonly-rules-test.yml"), testsOf(tests, mutants.get(i).alert()));
      args.add(copy.resolve("tests/onceonly-rules-test.yml").toString());
    }
    Promtool.Result result = Promtool.run(args.toArray(String[]::new));
    Map<String, Boolean> passed = passedByFile(result.output());
    List<String> survivors = new ArrayList<>();
    for (int i = 0; i < mutants.size(); i++) {
      String file = args.get(i + 2);
      assertThat(passed).as(result.output()).containsKey(file);
      if (passed.get(file)) {
        survivors.add(mutants.get(i).alert() + ": " + mutants.get(i).change());
      }
    }
    assertThat(survivors).as("changes no promtool test notices").isEmpty();
  }

  /** The unit-test file with only the tests that check {@code alert}. */
  static String testsOf(String tests, String alert) throws IOException {
    ObjectNode file = (ObjectNode) Rendered.YAML.readTree(tests);
    ArrayNode kept = file.arrayNode();
    for (JsonNode test : file.path("tests")) {
      if (test.path("alert_rule_test").findValuesAsText("alertname").contains(alert)) {
        kept.add(test);
      }
    }
    assertThat(kept).as("tests of " + alert).isNotEmpty();
    file.set("tests", kept);
    return Rendered.YAML.writeValueAsString(file);
  }

  /** Each "Unit Testing: <file>" section of promtool's output: whether it ended in SUCCESS. */
  static Map<String, Boolean> passedByFile(String output) {
    Map<String, Boolean> passed = new LinkedHashMap<>();
    String file = null;
    for (String line : output.lines().toList()) {
      if (line.startsWith("Unit Testing:")) {
        file = line.substring("Unit Testing:".length()).strip();
      } else if (file != null
          && (line.strip().equals("SUCCESS") || line.strip().startsWith("FAILED"))) {
        passed.put(file, line.strip().equals("SUCCESS"));
        file = null;
      }
    }
    return passed;
  }

  @Test
  void thresholdsAndDurationsAreMovedBothWays() {
    String rules =
        """
        groups:
          - name: g
            rules:
              - alert: Lag
                expr: max(x) > 30
                for: 10m
                labels: {severity: warning}
              - alert: Dead
                expr: >-
                  sum(increase(y[10m])) > 0
                  or
                  sum(y unless y offset 10m)
                labels: {severity: critical}
              - alert: Few
                expr: min(z) < 2
                for: 6h
        """;
    assertThat(RuleMutants.of(rules))
        .extracting(m -> m.alert() + ": " + m.change())
        .containsExactly(
            "Lag: > 30 -> > 33",
            "Lag: > 30 -> > 27",
            "Lag: for 10m -> 660s",
            "Lag: for 10m -> 540s",
            "Dead: > 0 -> > 1.5",
            "Dead: > 0 -> > -1",
            "Few: < 2 -> < 3",
            "Few: < 2 -> < 1",
            "Few: for 360m -> 23760s",
            "Few: for 360m -> 19440s");
    assertThat(RuleMutants.of(rules).get(0).rules())
        .contains("expr: max(x) > 33\n        for: 10m");
  }
}
