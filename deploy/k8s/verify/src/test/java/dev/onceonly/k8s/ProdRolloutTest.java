package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.k8s.ContainerEnv.Variable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How the prod render behaves during rollouts, drains and scheduling (deploy/k8s/README.md
 * "Timeouts", "Rollouts and shutdown", "Scheduling"): timeouts that agree with each other, budgets
 * that never block a drain, probes with timeouts, pods spread over zones in a priority class, and
 * the recommended labels.
 */
class ProdRolloutTest {

  private static final Map<String, String> SCHEMA_WAIT =
      Map.of(
          "consumer-service", "quarkus.onceonly.schema-wait", "outbox-relay", "relay.schema-wait");

  /** How long a new pod may take to be scheduled and pull its image before its wait begins. */
  private static final Duration START_MARGIN = Duration.ofMinutes(5);

  private static Rendered prod;

  @BeforeAll
  static void render() {
    prod = Rendered.overlay("prod");
  }

  @Test
  void theServicesWaitLongerThanTheJobMayRunAndRolloutsLongerThanTheyWait() {
    JsonNode job = prod.all("Job").get(0).path("spec");
    Duration deadline = Duration.ofSeconds(job.path("activeDeadlineSeconds").asLong());
    assertThat(deadline).as("the Job has a deadline").isPositive();
    // The Job's pods back off 10 s, 20 s, 40 s...: the retries must fit the deadline.
    long backoff = 10L * ((1L << job.path("backoffLimit").asInt()) - 1);
    assertThat(Duration.ofSeconds(backoff)).isLessThan(deadline.dividedBy(2));
    for (String service : SCHEMA_WAIT.keySet()) {
      JsonNode deployment = prod.one("Deployment", service);
      JsonNode container = ContainerEnv.container(deployment, service);
      Duration wait = schemaWait(service, container);
      assertThat(wait)
          .as(service + ": waits for the schema longer than the Job may run, plus a margin")
          .isGreaterThanOrEqualTo(deadline.plus(START_MARGIN));
      JsonNode startup = container.path("startupProbe");
      Duration start =
          Duration.ofSeconds(
              startup.path("periodSeconds").asLong() * startup.path("failureThreshold").asLong());
      Duration progress =
          Duration.ofSeconds(deployment.path("spec").path("progressDeadlineSeconds").asLong(600));
      assertThat(progress)
          .as(service + ": a rollout is failed only after a pod could have waited and started")
          .isGreaterThanOrEqualTo(wait.plus(start));
    }
  }

  @Test
  void disruptionBudgetsLetUnreadyPodsBeEvicted() {
    assertThat(prod.all("PodDisruptionBudget")).hasSize(2);
    for (JsonNode budget : prod.all("PodDisruptionBudget")) {
      assertThat(budget.path("spec").path("unhealthyPodEvictionPolicy").asText())
          .as(Rendered.describe(budget))
          .isEqualTo("AlwaysAllow");
    }
  }

  @Test
  void everyProbeHasATimeoutOfASecondOrMore() {
    for (JsonNode workload : prod.all("Deployment")) {
      JsonNode container = ContainerEnv.onlyContainer(workload);
      for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
        assertThat(container.path(probe).path("timeoutSeconds").asInt())
            .as(Rendered.describe(workload) + " " + probe + ": an explicit timeout, not 1 s")
            .isGreaterThanOrEqualTo(2);
      }
    }
  }

  @Test
  void replicasSpreadOverZonesThenNodesInTheOnceOnlyPriorityClass() {
    List<String> classes = prod.all("PriorityClass").stream().map(Rendered::name).toList();
    for (JsonNode workload : prod.workloads()) {
      JsonNode pod = Rendered.podSpec(workload);
      assertThat(classes)
          .as(Rendered.describe(workload))
          .contains(pod.path("priorityClassName").asText());
      if (workload.path("kind").asText().equals("Deployment")) {
        assertThat(pod.path("topologySpreadConstraints").findValuesAsText("topologyKey"))
            .as(Rendered.describe(workload))
            .containsExactly("topology.kubernetes.io/zone", "kubernetes.io/hostname");
      }
    }
    JsonNode priority = prod.one("PriorityClass", "onceonly");
    assertThat(priority.path("value").asInt()).isPositive().isLessThan(1_000_000_000);
    assertThat(priority.path("globalDefault").asBoolean()).isFalse();
  }

  @Test
  void everyObjectCarriesTheRecommendedLabels() {
    List<String> common =
        List.of(
            "app.kubernetes.io/part-of",
            "app.kubernetes.io/instance",
            "app.kubernetes.io/managed-by");
    for (JsonNode object : prod.objects) {
      assertThat(object.path("metadata").path("labels").fieldNames())
          .toIterable()
          .as(Rendered.describe(object))
          .containsAll(common);
    }
    for (JsonNode object : prod.objects) {
      String kind = object.path("kind").asText();
      if (List.of("Deployment", "Job", "Service", "ServiceAccount", "PodDisruptionBudget")
          .contains(kind)) {
        complete(object.path("metadata").path("labels"), Rendered.describe(object));
      }
      if (List.of("Deployment", "Job").contains(kind)) {
        complete(
            object.path("spec").path("template").path("metadata").path("labels"),
            Rendered.describe(object) + " pods");
      }
    }
  }

  private static void complete(JsonNode labels, String where) {
    for (String key :
        List.of("name", "instance", "version", "component", "part-of", "managed-by")) {
      assertThat(labels.path("app.kubernetes.io/" + key).asText())
          .as(where + " app.kubernetes.io/" + key)
          .isNotBlank();
    }
    assertThat(labels.path("app.kubernetes.io/version").asText())
        .as(where + ": the version label is the release")
        .isEqualTo(Repo.version());
  }

  private static Duration schemaWait(String service, JsonNode container) {
    ServiceProperties props = new ServiceProperties(service);
    String key = SCHEMA_WAIT.get(service);
    Variable set = ContainerEnv.of(prod, container).get(props.variable(key));
    return ServiceProperties.duration(set != null ? set.value() : props.defaultValue(key));
  }
}
