package dev.onceonly.k8s;

import static dev.onceonly.k8s.MetricOwners.CONSUMER;
import static dev.onceonly.k8s.MetricOwners.RELAY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.k8s.PromQl.Use;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The check ManifestsRunIT applies to the services' scrapes: each metric the rules and the
 * dashboard query must come from the service the expression (or the metric's prefix) points at.
 */
class MetricOwnersTest {

  private static final List<Use> USES =
      List.of(
          new Use("rule A", "max by (namespace) (onceonly_relay_oldest_pending_age_seconds) > 30"),
          new Use(
              "rule B",
              "sum(increase(onceonly_consumer_messages_total{outcome=\"conflict\"}[10m])) > 0"),
          new Use("rule C", "max(onceonly_db_dead_tuples) > 1000000"),
          new Use("rule D", "up{job=~\"consumer-service|outbox-relay\"} == 0"),
          new Use(
              "panel E",
              "sum by (job) (rate(http_server_requests_seconds_count{job=~\"$job\"}[5m]))"));

  private static Map<String, Set<String>> exported() {
    return Map.of(
        CONSUMER,
        new TreeSet<>(
            Set.of("onceonly_consumer_messages_total", "http_server_requests_seconds_count")),
        RELAY,
        new TreeSet<>(
            Set.of(
                "onceonly_relay_oldest_pending_age_seconds",
                "onceonly_db_dead_tuples",
                "http_server_requests_seconds_count")));
  }

  @Test
  void eachMetricComesFromTheServiceItsExpressionOrPrefixNames() {
    assertThat(MetricOwners.problems(USES, exported())).isEmpty();
  }

  @Test
  void aMetricExportedByTheWrongServiceFails() {
    Map<String, Set<String>> exported = exported();
    exported.get(RELAY).remove("onceonly_db_dead_tuples");
    exported.get(CONSUMER).add("onceonly_db_dead_tuples");
    assertThat(MetricOwners.problems(USES, exported))
        .containsExactly(
            "onceonly_db_dead_tuples (rule C) is not exported by outbox-relay but by [consumer-service]",
            "consumer-service exports onceonly_db_dead_tuples, which MetricOwners.PREFIXES gives to"
                + " [outbox-relay]",
            "outbox-relay exports no onceonly_db_* metric: MetricOwners.PREFIXES is stale");
  }

  @Test
  void aRuntimeMetricTheDashboardReadsOfEveryJobMustComeFromBoth() {
    Map<String, Set<String>> exported = exported();
    exported.get(RELAY).remove("http_server_requests_seconds_count");
    assertThat(MetricOwners.problems(USES, exported))
        .containsExactly(
            "http_server_requests_seconds_count (panel E) is not exported by outbox-relay but by"
                + " [consumer-service]");
  }

  @Test
  void aLiteralJobSelectorDecidesOverThePrefix() {
    assertThat(
            MetricOwners.exporters(
                "onceonly_relay_pending", "max(onceonly_relay_pending{job=\"consumer-service\"})"))
        .containsExactly(CONSUMER);
    assertThat(
            MetricOwners.exporters(
                "jvm_threads_live_threads",
                "jvm_threads_live_threads{job=~\"outbox-relay\", area=\"x\"}"))
        .containsExactly(RELAY);
    assertThat(
            MetricOwners.exporters(
                "onceonly_relay_pending", "max(onceonly_relay_pending{job=~\"$job\"})"))
        .containsExactly(RELAY);
    assertThat(MetricOwners.exporters("onceonly_outbox_rows", "onceonly_outbox_rows")).isEmpty();
    assertThat(
            MetricOwners.problems(
                List.of(new Use("rule F", "onceonly_outbox_rows > 0")),
                Map.of(
                    CONSUMER,
                    Set.of("onceonly_consumer_x"),
                    RELAY,
                    Set.of("onceonly_relay_y", "onceonly_db_z", "onceonly_outbox_rows"))))
        .containsExactly(
            "onceonly_outbox_rows (rule F) has no owner: give its prefix a service in"
                + " MetricOwners.PREFIXES",
            "outbox-relay exports onceonly_outbox_rows, which MetricOwners.PREFIXES gives to no"
                + " service");
  }

  @Test
  void theJobsAreTheServicesTheServiceMonitorsScrape() {
    Rendered prod = Rendered.overlay("prod");
    Set<String> jobs = new TreeSet<>();
    for (JsonNode monitor : prod.all("ServiceMonitor")) {
      // Without jobLabel the Prometheus Operator names the job after the scraped Service.
      assertThat(monitor.path("spec").has("jobLabel")).as(Rendered.describe(monitor)).isFalse();
      JsonNode selector = monitor.path("spec").path("selector").path("matchLabels");
      for (JsonNode service : prod.all("Service")) {
        JsonNode labels = service.path("metadata").path("labels");
        boolean selected = selector.size() > 0;
        for (var label : (Iterable<Map.Entry<String, JsonNode>>) selector::fields) {
          selected &= label.getValue().equals(labels.path(label.getKey()));
        }
        if (selected) {
          jobs.add(Rendered.name(service));
        }
      }
    }
    assertThat(jobs).isEqualTo(MetricOwners.SERVICES);
  }

  @Test
  void everyExpressionOfTheRulesAndTheDashboardIsChecked() {
    Set<String> checked = new TreeSet<>();
    PromQl.uses().forEach(use -> checked.addAll(PromQl.metricNames(use.expr())));
    Set<String> used = new TreeSet<>(PromQl.ofRules());
    used.addAll(PromQl.ofDashboard());
    assertThat(checked).isEqualTo(used);
    assertThat(PromQl.uses())
        .extracting(Use::where)
        .contains(
            "rule OnceOnlyServiceDown",
            "dashboard panel \"Outbox pending\"",
            "dashboard variable consumer");
  }
}
