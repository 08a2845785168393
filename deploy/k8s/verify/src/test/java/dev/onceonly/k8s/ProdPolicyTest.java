package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.k8s.ContainerEnv.From;
import dev.onceonly.k8s.ContainerEnv.Variable;
import dev.onceonly.model.ProductionEnvironment.Requirement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What production needs of the prod render, checked against the services' own settings. */
class ProdPolicyTest {

  private static final List<String> SERVICES = List.of("consumer-service", "outbox-relay");
  private static Rendered prod;

  @BeforeAll
  static void render() {
    prod = Rendered.overlay("prod");
  }

  @Test
  void probesAskTheHealthEndpointsOnTheManagementPortTheServiceListensOn() {
    for (String service : SERVICES) {
      JsonNode container = container(service);
      ServiceProperties props = new ServiceProperties(service);
      assertThat(props.raw("quarkus.management.enabled")).isEqualTo("true");
      Map<String, Variable> env = ContainerEnv.of(prod, container);
      int management = ContainerEnv.containerPort(container, "management");
      int http = ContainerEnv.containerPort(container, "http");
      String managementVariable = props.variable("quarkus.management.port");
      String httpVariable = props.variable("quarkus.http.port");
      assertThat(env.get(managementVariable).value())
          .as(service + ": the service is told to listen on the management containerPort")
          .isEqualTo(Integer.toString(management));
      assertThat(env.get(httpVariable).value()).isEqualTo(Integer.toString(http));
      assertThat(props.defaultValue("quarkus.management.port"))
          .as(service + ": the same port as the service's own default")
          .isEqualTo(Integer.toString(management));
      Map<String, String> paths =
          Map.of(
              "startupProbe", "/q/health/started",
              "readinessProbe", "/q/health/ready",
              "livenessProbe", "/q/health/live");
      paths.forEach(
          (probe, path) -> {
            JsonNode spec = container.path(probe);
            assertThat(spec.path("httpGet").path("path").asText())
                .as(service + " " + probe)
                .isEqualTo(path);
            assertThat(ContainerEnv.probePort(container, spec))
                .as(service + " " + probe)
                .isEqualTo(management);
          });
      JsonNode servicePorts = prod.one("Service", service).path("spec").path("ports");
      assertThat(servicePorts.findValuesAsText("targetPort")).contains("http", "management");
    }
  }

  @Test
  void everyContainerHasRequestsAndLimitsAndAJvmThatFitsItsMemory() {
    for (JsonNode workload : prod.workloads()) {
      JsonNode container = ContainerEnv.onlyContainer(workload);
      String where = Rendered.describe(workload);
      JsonNode resources = container.path("resources");
      for (String field : List.of("requests", "limits")) {
        assertThat(resources.path(field).path("cpu").asText()).as(where + " " + field).isNotBlank();
        assertThat(resources.path(field).path("memory").asText())
            .as(where + " " + field)
            .isNotBlank();
      }
      long limit = mebibytes(resources.path("limits").path("memory").asText());
      assertThat(mebibytes(resources.path("requests").path("memory").asText()))
          .as(where + ": memory request = limit (no overcommit, no OOM kill under node pressure)")
          .isEqualTo(limit);
      Map<String, Variable> env = ContainerEnv.of(prod, container);
      assertThat(env.get("GC_CONTAINER_OPTIONS").value()).as(where).isEqualTo("-XX:+UseSerialGC");
      String flags = env.get("JAVA_OPTS_APPEND").value();
      double heap = limit * flag(flags, "MaxRAMPercentage") / 100;
      double metaspace = flag(flags, "MaxMetaspaceSize");
      double codeCache = flag(flags, "ReservedCodeCacheSize");
      // Netty's and NIO's buffers: unbounded they could grow as large as the heap.
      double direct = flag(flags, "MaxDirectMemorySize");
      assertThat(heap)
          .as(where + ": heap (MiB) near the benchmarked -Xmx160m")
          .isBetween(128.0, 192.0);
      // Threads, GC structures, symbols and the CDS archive: 48 MiB more (deploy/bench/README.md).
      assertThat(heap + metaspace + codeCache + direct + 48)
          .as(
              where
                  + ": heap + metaspace + code cache + direct buffers + JVM overhead in the limit")
          .isLessThanOrEqualTo(limit);
      assertThat(flags).as(where).contains("-XX:+ExitOnOutOfMemoryError");
    }
  }

  @Test
  void everyPodRunsRestrictedWithAWritableTmpOnly() {
    JsonNode namespace = prod.all("Namespace").get(0);
    assertThat(
            namespace
                .path("metadata")
                .path("labels")
                .path("pod-security.kubernetes.io/enforce")
                .asText())
        .isEqualTo("restricted");
    for (JsonNode workload : prod.workloads()) {
      String where = Rendered.describe(workload);
      JsonNode pod = Rendered.podSpec(workload);
      assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).as(where).isTrue();
      assertThat(pod.path("securityContext").path("seccompProfile").path("type").asText())
          .as(where)
          .isEqualTo("RuntimeDefault");
      assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).as(where).isFalse();
      String account = pod.path("serviceAccountName").asText();
      assertThat(prod.one("ServiceAccount", account)).as(where).isNotNull();
      JsonNode container = ContainerEnv.onlyContainer(workload);
      JsonNode security = container.path("securityContext");
      assertThat(security.path("allowPrivilegeEscalation").asBoolean(true)).as(where).isFalse();
      assertThat(security.path("readOnlyRootFilesystem").asBoolean()).as(where).isTrue();
      assertThat(security.path("privileged").asBoolean(false)).as(where).isFalse();
      assertThat(security.path("capabilities").path("drop").toString())
          .as(where)
          .isEqualTo("[\"ALL\"]");
      assertThat(security.path("capabilities").has("add")).as(where).isFalse();
      // The only writable mount is /tmp; the others are the CA Secrets of components/tls.
      assertThat(container.path("volumeMounts").findValuesAsText("mountPath"))
          .as(where)
          .startsWith("/tmp")
          .allMatch(path -> path.equals("/tmp") || path.startsWith("/etc/onceonly/"));
      for (JsonNode mount : container.path("volumeMounts")) {
        if (!mount.path("mountPath").asText().equals("/tmp")) {
          assertThat(mount.path("readOnly").asBoolean()).as(where).isTrue();
        }
      }
      assertThat(pod.path("volumes").get(0).has("emptyDir")).as(where).isTrue();
    }
  }

  @Test
  void imagesCarryTheProjectVersionNeverLatest() {
    for (String overlay : List.of("prod", "dev")) {
      Rendered rendered = overlay.equals("prod") ? prod : Rendered.overlay(overlay);
      for (JsonNode workload : rendered.workloads()) {
        for (JsonNode container : Rendered.podSpec(workload).path("containers")) {
          String image = container.path("image").asText();
          String tag = image.substring(image.lastIndexOf('/') + 1);
          assertThat(tag).as(overlay + " " + image).contains(":").doesNotEndWith(":latest");
          if (image.contains("onceonly/")) {
            assertThat(image).as(overlay).endsWith(":" + Repo.version());
          }
        }
      }
    }
  }

  @Test
  void everyProductionSettingWithoutDefaultIsProvided() {
    for (String service : SERVICES) {
      List<Requirement> requirements = new ServiceProperties(service).requirements();
      assertThat(requirements).as(service).isNotEmpty();
      List<JsonNode> runners =
          prod.workloads().stream()
              .filter(
                  w ->
                      ContainerEnv.onlyContainer(w)
                          .path("image")
                          .asText()
                          .contains("/" + service + ":"))
              .toList();
      assertThat(runners).as(service).isNotEmpty();
      for (JsonNode workload : runners) {
        Map<String, Variable> env = ContainerEnv.of(prod, ContainerEnv.onlyContainer(workload));
        for (Requirement requirement : requirements) {
          assertThat(requirement.variables().stream().anyMatch(v -> provided(env.get(v))))
              .as(Rendered.describe(workload) + " provides " + requirement.describe())
              .isTrue();
        }
      }
    }
  }

  @Test
  void secretsComeFromTheSecretByExplicitKeyAndTheRenderHoldsNone() {
    assertThat(prod.all("Secret")).as("prod references the Secret, never contains it").isEmpty();
    Pattern secret =
        Pattern.compile(
            ".*(PASSWORD|_HASH|AUTH_VALUE|SECRET|TOKEN).*|QUARKUS_SECURITY_USERS_EMBEDDED_USERS_.*");
    for (JsonNode workload : prod.workloads()) {
      ContainerEnv.of(prod, ContainerEnv.onlyContainer(workload))
          .forEach(
              (name, variable) -> {
                if (secret.matcher(name).matches()) {
                  assertThat(variable.from())
                      .as(Rendered.describe(workload) + " " + name)
                      .isEqualTo(From.SECRET);
                  assertThat(variable.optional()).as(name + " must not be optional").isFalse();
                  assertThat(variable.object()).isEqualTo("onceonly-secrets");
                }
              });
    }
    for (JsonNode map : prod.all("ConfigMap")) {
      map.path("data")
          .fieldNames()
          .forEachRemaining(key -> assertThat(secret.matcher(key).matches()).as(key).isFalse());
    }
  }

  @Test
  void theGracePeriodCoversPreStopShutdownDelayAndTheRelaysShutdownTimeout() {
    for (String service : SERVICES) {
      JsonNode deployment = prod.one("Deployment", service);
      JsonNode container = container(service);
      Map<String, Variable> env = ContainerEnv.of(prod, container);
      ServiceProperties props = new ServiceProperties(service);
      Duration delay =
          ServiceProperties.duration(env.get(props.variable("quarkus.shutdown.delay")).value());
      assertThat(delay).as(service + ": readiness goes DOWN before the service stops").isPositive();
      List<String> preStop = List.of("sleep", "5");
      JsonNode command = container.path("lifecycle").path("preStop").path("exec").path("command");
      assertThat(command.get(0).asText()).as(service + " preStop").isEqualTo(preStop.get(0));
      Duration sleep = Duration.ofSeconds(command.get(1).asLong());
      Duration work = Duration.ZERO;
      if (service.equals("outbox-relay")) {
        String variable = props.variable("relay.shutdown-timeout");
        Variable set = env.get(variable);
        work =
            ServiceProperties.duration(
                set != null ? set.value() : props.defaultValue("relay.shutdown-timeout"));
      }
      Duration needed = sleep.plus(delay).plus(work).plusSeconds(5);
      long grace = Rendered.podSpec(deployment).path("terminationGracePeriodSeconds").asLong(30);
      assertThat(Duration.ofSeconds(grace))
          .as(service + ": grace >= preStop + SHUTDOWN_DELAY + shutdown timeout + 5 s")
          .isGreaterThanOrEqualTo(needed);
    }
  }

  @Test
  void everyDeploymentHasADisruptionBudgetThatStillLetsNodesDrain() {
    for (JsonNode deployment : prod.all("Deployment")) {
      JsonNode labels = deployment.path("spec").path("template").path("metadata").path("labels");
      List<JsonNode> budgets =
          prod.all("PodDisruptionBudget").stream()
              .filter(pdb -> selects(pdb.path("spec").path("selector").path("matchLabels"), labels))
              .toList();
      assertThat(budgets).as(Rendered.describe(deployment)).hasSize(1);
      assertThat(budgets.get(0).path("spec").path("maxUnavailable").asInt()).isEqualTo(1);
    }
  }

  @Test
  void twoReplicasAtLeastAndTheRelayScaledByItsAutoscaler() {
    assertThat(prod.one("Deployment", "consumer-service").path("spec").path("replicas").asInt())
        .isGreaterThanOrEqualTo(2);
    JsonNode relay = prod.one("Deployment", "outbox-relay");
    assertThat(relay.path("spec").has("replicas"))
        .as("the HPA owns the relay's replica count")
        .isFalse();
    JsonNode hpa = prod.one("HorizontalPodAutoscaler", "outbox-relay");
    assertThat(hpa.path("spec").path("scaleTargetRef").path("name").asText())
        .isEqualTo("outbox-relay");
    assertThat(hpa.path("spec").path("minReplicas").asInt()).isGreaterThanOrEqualTo(2);
  }

  @Test
  void migrationsRunOnceInAJobNamedAfterItsImageAndSettingsAndTheServicesWaitForThem() {
    List<JsonNode> jobs = prod.all("Job");
    assertThat(jobs).hasSize(1);
    JsonNode job = jobs.get(0);
    JsonNode container = ContainerEnv.onlyContainer(job);
    assertThat(container.path("image").asText()).contains("/consumer-service:");
    // The Job reads one ConfigMap, which holds its image too, and carries that ConfigMap's name.
    assertThat(container.path("envFrom").findValuesAsText("name"))
        .containsExactly(Rendered.name(job));
    JsonNode identity = prod.generated("ConfigMap", "onceonly-migrate");
    assertThat(Rendered.name(identity)).isEqualTo(Rendered.name(job));
    assertThat(identity.path("data").path("ONCEONLY_MIGRATIONS_IMAGE").asText())
        .isEqualTo(container.path("image").asText());
    Map<String, Variable> env = ContainerEnv.of(prod, container);
    Map<String, Variable> services = ContainerEnv.of(prod, container("consumer-service"));
    for (String setting :
        List.of("DB_URL", "DB_USER", "RABBITMQ_ADDRESSES", "RABBITMQ_HOST", "RABBITMQ_VHOST")) {
      assertThat(env.get(setting).value())
          .as(setting + ": the Job migrates the database the services use")
          .isEqualTo(services.get(setting).value());
    }
    assertThat(env.get("QUARKUS_INIT_AND_EXIT").value()).isEqualTo("true");
    ServiceProperties consumer = new ServiceProperties("consumer-service");
    String migrate = consumer.variable("quarkus.flyway.migrate-at-start");
    assertThat(consumer.variable("quarkus.onceonly.migrate-at-start")).isEqualTo(migrate);
    assertThat(env.get(migrate).value()).isEqualTo("true");
    assertThat(Rendered.podSpec(job).path("restartPolicy").asText()).isEqualTo("Never");
    assertThat(job.path("spec").path("backoffLimit").asInt()).isPositive();
    Map<String, Variable> consumerEnv = ContainerEnv.of(prod, container("consumer-service"));
    assertThat(consumerEnv.get(migrate).value()).as("replicas never race DDL").isEqualTo("false");
    // Both services wait for the schema (bounded) rather than crash-loop while the Job runs.
    assertThat(ServiceProperties.duration(consumer.defaultValue("quarkus.onceonly.schema-wait")))
        .isPositive();
    ServiceProperties relay = new ServiceProperties("outbox-relay");
    Variable relayWait =
        ContainerEnv.of(prod, container("outbox-relay")).get(relay.variable("relay.schema-wait"));
    assertThat(
            ServiceProperties.duration(
                relayWait != null ? relayWait.value() : relay.defaultValue("relay.schema-wait")))
        .isGreaterThanOrEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void networkPoliciesDenyByDefaultAndOpenOnlyTheServicesPorts() {
    List<JsonNode> policies = prod.all("NetworkPolicy");
    assertThat(policies)
        .anyMatch(
            p ->
                p.path("spec").path("podSelector").isEmpty()
                    && p.path("spec")
                        .path("policyTypes")
                        .toString()
                        .equals("[\"Ingress\",\"Egress\"]")
                    && !p.path("spec").has("ingress")
                    && !p.path("spec").has("egress"));
    Map<String, List<Integer>> egress =
        Map.of("consumer-service", List.of(5432, 5671), "outbox-relay", List.of(5432, 443));
    for (String service : SERVICES) {
      JsonNode labels =
          prod.one("Deployment", service)
              .path("spec")
              .path("template")
              .path("metadata")
              .path("labels");
      List<JsonNode> own =
          policies.stream()
              .filter(p -> !p.path("spec").path("podSelector").isEmpty())
              .filter(p -> selects(p.path("spec").path("podSelector").path("matchLabels"), labels))
              .toList();
      assertThat(own).as(service).isNotEmpty();
      JsonNode container = container(service);
      List<Integer> containerPorts =
          container.path("ports").findValues("containerPort").stream()
              .map(JsonNode::asInt)
              .toList();
      for (JsonNode policy : own) {
        assertThat(
                policy.path("spec").path("ingress").findValues("port").stream()
                    .map(JsonNode::asInt)
                    .toList())
            .as(service + ": reached only on its ports")
            .isSubsetOf(containerPorts);
        assertThat(
                policy.path("spec").path("egress").findValues("port").stream()
                    .map(JsonNode::asInt)
                    .toList())
            .as(service + ": reaches only what it needs")
            .isSubsetOf(egress.get(service));
      }
    }
  }

  @Test
  void prometheusScrapesEveryServicesManagementPort() {
    for (String service : SERVICES) {
      JsonNode monitor = prod.one("ServiceMonitor", service);
      assertThat(
              selects(
                  monitor.path("spec").path("selector").path("matchLabels"),
                  prod.one("Service", service).path("metadata").path("labels")))
          .isTrue();
      JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
      assertThat(endpoint.path("port").asText()).isEqualTo("management");
      assertThat(endpoint.path("path").asText()).isEqualTo("/q/metrics");
    }
    assertThat(prod.all("PrometheusRule")).hasSize(1);
  }

  private static JsonNode container(String service) {
    return ContainerEnv.container(prod.one("Deployment", service), service);
  }

  private static boolean provided(Variable variable) {
    return variable != null
        && (variable.from() == From.SECRET
            || (variable.value() != null && !variable.value().isBlank()));
  }

  private static boolean selects(JsonNode matchLabels, JsonNode labels) {
    if (matchLabels.isEmpty()) {
      return false;
    }
    var fields = matchLabels.fields();
    while (fields.hasNext()) {
      var e = fields.next();
      if (!labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
        return false;
      }
    }
    return true;
  }

  private static long mebibytes(String quantity) {
    Matcher m = Pattern.compile("(\\d+)(Mi|Gi)").matcher(quantity);
    if (!m.matches()) {
      throw new AssertionError("memory as Mi or Gi: " + quantity);
    }
    return Long.parseLong(m.group(1)) * (m.group(2).equals("Gi") ? 1024 : 1);
  }

  /** A -XX flag's value in MiB (sizes such as 96m) or as a number (percentages). */
  private static double flag(String flags, String name) {
    Matcher m = Pattern.compile("-XX:" + name + "=(\\d+)([mMgG]?)").matcher(flags);
    if (!m.find()) {
      throw new AssertionError("no -XX:" + name + " in " + flags);
    }
    double value = Double.parseDouble(m.group(1));
    return m.group(2).equalsIgnoreCase("g") ? value * 1024 : value;
  }
}
