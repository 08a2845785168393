package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The alerting rules (promtool check and unit tests, one test at least per alert), the
 * PrometheusRule generated from them, and the dashboard ConfigMap for Grafana's sidecar.
 */
class MonitoringAsCodeTest {

  static final String RULES = "deploy/prometheus/onceonly-rules.yml";
  static final String TESTS = "deploy/prometheus/tests/onceonly-rules-test.yml";

  @Test
  void promtoolAcceptsTheRules() {
    Promtool.Result result = Promtool.run("check", "rules", RULES);
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }

  @Test
  void everyAlertPassesItsPromtoolUnitTests() {
    Promtool.Result result = Promtool.run("test", "rules", TESTS);
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(result.output()).contains("SUCCESS");
  }

  @Test
  void everyAlertHasAUnitTestThatExpectsItToFire() throws IOException {
    JsonNode tests = Rendered.YAML.readTree(Repo.read(TESTS));
    Set<String> firing = new TreeSet<>();
    for (JsonNode test : tests.path("tests")) {
      for (JsonNode check : test.path("alert_rule_test")) {
        if (!check.path("exp_alerts").isEmpty()) {
          firing.add(check.path("alertname").asText());
        }
      }
    }
    assertThat(PromQl.alerts())
        .contains(
            "OnceOnlyOutboxLagWarning",
            "OnceOnlyOutboxLagCritical",
            "OnceOnlyOutboxDeadRows",
            "OnceOnlyConsumerLag",
            "OnceOnlyMessagesDeadLettered",
            "OnceOnlyDeadLetterQueueNotEmpty",
            "OnceOnlyConflicts",
            "OnceOnlyServiceDown");
    assertThat(firing).containsAll(PromQl.alerts());
  }

  @Test
  void theAppliedPrometheusRuleIsTheRulesFile() throws IOException {
    JsonNode rule = Rendered.YAML.readTree(Repo.read("deploy/prometheus/prometheusrule.yaml"));
    assertThat(rule.path("kind").asText()).isEqualTo("PrometheusRule");
    assertThat(rule.path("spec").path("groups"))
        .as(
            "deploy/prometheus/prometheusrule.yaml differs from "
                + RULES
                + ": run deploy/prometheus/generate-prometheusrule.sh")
        .isEqualTo(PromQl.rules().path("groups"));
    JsonNode rendered = Rendered.overlay("prod").one("PrometheusRule", "onceonly");
    assertThat(rendered.path("spec")).isEqualTo(rule.path("spec"));
  }

  @Test
  void theDashboardShipsAsASidecarConfigMapWithItsDataSourceAsAVariable() throws IOException {
    JsonNode map = Rendered.overlay("prod").one("ConfigMap", "onceonly-dashboard");
    assertThat(map.path("metadata").path("labels").path("grafana_dashboard").asText())
        .isEqualTo("1");
    String json = map.path("data").path("onceonly-dashboard.json").asText();
    assertThat(json).isEqualTo(Repo.read("deploy/grafana/onceonly-dashboard.json"));
    JsonNode dashboard = PromQl.dashboard();
    assertThat(dashboard.has("__inputs")).as("the sidecar cannot resolve import inputs").isFalse();
    List<String> variables = dashboard.path("templating").path("list").findValuesAsText("name");
    for (String uid : dashboard.findValuesAsText("uid")) {
      if (uid.startsWith("$")) {
        assertThat(variables).as("data source " + uid).contains(uid.replaceAll("[${}]", ""));
      }
    }
  }

  @Test
  void prometheusSelectsEveryRuleAndServiceMonitorByTheLabelsSetInOnePlace() throws IOException {
    Map<String, String> selector = selectorLabels("deploy/k8s/components/monitoring");
    assertThat(selector).containsEntry("release", "kube-prometheus-stack");
    assertSelected(Rendered.overlay("prod"), selector);

    ManifestCopy copy = ManifestCopy.of("selector-labels");
    copy.edit(
        "deploy/k8s/components/monitoring/selector-labels.yaml",
        "value: kube-prometheus-stack",
        "value: monitoring");
    Rendered edited = copy.render("deploy/k8s/overlays/prod");
    assertSelected(edited, Map.of("release", "monitoring"));
  }

  @Test
  void everyDashboardQueryFiltersByTheNamespaceVariable() {
    JsonNode dashboard = PromQl.dashboard();
    assertThat(dashboard.path("templating").path("list").findValuesAsText("name"))
        .contains("namespace");
    List<String> queries = dashboard.path("panels").findValuesAsText("expr");
    assertThat(queries).hasSizeGreaterThan(20);
    for (String query : queries) {
      assertThat(query).contains("namespace=~\"$namespace\"");
    }
  }

  /** The labels selector-labels.yaml of {@code component} adds (its JSON patch operations). */
  static Map<String, String> selectorLabels(String component) throws IOException {
    Map<String, String> labels = new TreeMap<>();
    for (JsonNode op : Rendered.YAML.readTree(Repo.read(component + "/selector-labels.yaml"))) {
      String path = op.path("path").asText();
      assertThat(path).startsWith("/metadata/labels/");
      labels.put(
          path.substring("/metadata/labels/".length()).replace("~1", "/"),
          op.path("value").asText());
    }
    return labels;
  }

  private static void assertSelected(Rendered rendered, Map<String, String> selector) {
    List<JsonNode> selected = new ArrayList<>(rendered.all("PrometheusRule"));
    selected.addAll(rendered.all("ServiceMonitor"));
    assertThat(selected).hasSize(3);
    for (JsonNode object : selected) {
      JsonNode labels = object.path("metadata").path("labels");
      selector.forEach(
          (key, value) ->
              assertThat(labels.path(key).asText())
                  .as(Rendered.describe(object) + " selected by " + key + "=" + value)
                  .isEqualTo(value));
    }
  }

  @Test
  void metricNamesAreReadOutOfRulesAndDashboard() {
    assertThat(
            PromQl.metricNames(
                "sum by (kind) (increase(x_total{a=\"b\"}[10m])) > 0 or y unless y offset 10m"))
        .containsExactly("x_total", "y");
    assertThat(PromQl.metricNames("max(a_bytes) + max(b_bytes) > 5e9 and c > 1.5E-3"))
        .containsExactly("a_bytes", "b_bytes", "c");
    assertThat(PromQl.ofRules())
        .contains("onceonly_relay_dead_total", "onceonly_consumer_queue_messages", "up")
        .doesNotContain("by", "namespace", "kind", "sum");
    assertThat(PromQl.ofDashboard())
        .contains(
            "onceonly_relay_pending",
            "onceonly_relay_attempts_total",
            "onceonly_consumer_handle_seconds_max",
            "http_server_requests_seconds_count")
        .doesNotContain("job", "instance", "consumer", "vector");
  }
}
