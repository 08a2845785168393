package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The API server's own validation of the kinds OnceOnly renders, for what a schema cannot say: the
 * enumerations of k8s.io/api (imagePullPolicy, protocol, restartPolicy, ...), a Deployment whose
 * selector must select its own pods, a PodDisruptionBudget with exactly one of minAvailable and
 * maxUnavailable, an autoscaler's minReplicas within maxReplicas, port names as IANA service names
 * (at most 15 characters), named probe ports that exist, ports in range, requests within limits,
 * label keys, CIDRs. Each rule is the one of k8s.io/kubernetes pkg/apis/.../validation; each
 * problem names the object and the field.
 */
final class ApiRules {

  private static final String IANA_SVC_NAME = "(?=.{1,15}$)(?=.*[a-z])[a-z0-9]+(-[a-z0-9]+)*";
  private static final String DNS_LABEL = "(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String LABEL_NAME = "(?=.{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?";
  private static final String ENV_NAME = "[-._a-zA-Z][-._a-zA-Z0-9]*";
  private static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");

  private final String where;
  private final List<String> problems = new ArrayList<>();

  private ApiRules(JsonNode object) {
    this.where = Rendered.describe(object);
  }

  static List<String> problems(JsonNode object) {
    ApiRules rules = new ApiRules(object);
    rules.check(object);
    return rules.problems;
  }

  private void check(JsonNode object) {
    object.path("metadata").path("labels").fieldNames().forEachRemaining(this::labelKey);
    JsonNode spec = object.path("spec");
    switch (object.path("kind").asText()) {
      case "Deployment" -> deployment(spec);
      case "Job" -> job(spec);
      case "Service" -> service(spec);
      case "PodDisruptionBudget" -> budget(spec);
      case "HorizontalPodAutoscaler" -> autoscaler(spec);
      case "NetworkPolicy" -> networkPolicy(spec);
      case "Ingress" ->
          spec.path("rules")
              .findValuesAsText("pathType")
              .forEach(
                  t ->
                      oneOf(
                          "spec.rules.paths.pathType",
                          t,
                          List.of("Exact", "Prefix", "ImplementationSpecific")));
      case "PriorityClass" -> {
        if (object.path("value").asLong() > 1_000_000_000L) {
          problem("value", "above 1000000000 is reserved for system classes");
        }
        optionalOneOf(
            "preemptionPolicy",
            object.path("preemptionPolicy"),
            List.of("Never", "PreemptLowerPriority"));
      }
      default -> {}
    }
  }

  private void deployment(JsonNode spec) {
    JsonNode selector = spec.path("selector");
    JsonNode labels = spec.path("template").path("metadata").path("labels");
    if (selector.path("matchLabels").isEmpty() && selector.path("matchExpressions").isEmpty()) {
      problem("spec.selector", "required and non-empty");
    } else if (!Selectors.selects(selector, labels)) {
      problem("spec.template.metadata.labels", "`selector` does not match template `labels`");
    }
    optionalOneOf(
        "spec.strategy.type",
        spec.path("strategy").path("type"),
        List.of("RollingUpdate", "Recreate"));
    JsonNode rolling = spec.path("strategy").path("rollingUpdate");
    if (rolling.path("maxSurge").asText("1").matches("0%?")
        && rolling.path("maxUnavailable").asText("1").matches("0%?")) {
      problem("spec.strategy.rollingUpdate.maxUnavailable", "may not be 0 when maxSurge is 0");
    }
    if (spec.has("progressDeadlineSeconds")
        && spec.path("progressDeadlineSeconds").asLong() <= spec.path("minReadySeconds").asLong()) {
      problem("spec.progressDeadlineSeconds", "must be greater than minReadySeconds");
    }
    pod(spec.path("template").path("spec"), List.of("Always"));
  }

  private void job(JsonNode spec) {
    for (String field : List.of("backoffLimit", "ttlSecondsAfterFinished")) {
      if (spec.path(field).asLong(0) < 0) {
        problem("spec." + field, "must be greater than or equal to 0");
      }
    }
    if (spec.has("activeDeadlineSeconds") && spec.path("activeDeadlineSeconds").asLong() <= 0) {
      problem("spec.activeDeadlineSeconds", "must be greater than 0");
    }
    pod(spec.path("template").path("spec"), List.of("OnFailure", "Never"));
  }

  private void pod(JsonNode pod, List<String> restartPolicies) {
    oneOf(
        "spec.template.spec.restartPolicy",
        pod.path("restartPolicy").asText(restartPolicies.get(0)),
        restartPolicies);
    Set<String> volumes = new HashSet<>(pod.path("volumes").findValuesAsText("name"));
    Set<String> containers = new HashSet<>();
    for (JsonNode container : pod.path("containers")) {
      String name = container.path("name").asText();
      String at = "containers[" + name + "]";
      if (!name.matches(DNS_LABEL) || !containers.add(name)) {
        problem(at + ".name", "must be a unique DNS-1123 label");
      }
      optionalOneOf(
          at + ".imagePullPolicy",
          container.path("imagePullPolicy"),
          List.of("Always", "IfNotPresent", "Never"));
      Set<String> portNames = new HashSet<>();
      for (JsonNode port : container.path("ports")) {
        port(at + ".ports", port, "containerPort");
        if (port.has("name") && !portNames.add(port.path("name").asText())) {
          problem(at + ".ports.name", "duplicate " + port.path("name").asText());
        }
      }
      container.path("env").findValuesAsText("name").stream()
          .filter(n -> !n.matches(ENV_NAME))
          .forEach(n -> problem(at + ".env", n + " is not a valid environment variable name"));
      for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
        if (container.has(probe)) {
          probe(
              at + "." + probe, container.path(probe), portNames, !probe.equals("readinessProbe"));
        }
      }
      for (String resource : List.of("cpu", "memory")) {
        JsonNode request = container.path("resources").path("requests").path(resource);
        JsonNode limit = container.path("resources").path("limits").path(resource);
        if (!request.isMissingNode()
            && !limit.isMissingNode()
            && Quantity.parse(request.asText()).compareTo(Quantity.parse(limit.asText())) > 0) {
          problem(
              at + ".resources.requests." + resource, "must be less than or equal to the limit");
        }
      }
      for (JsonNode mount : container.path("volumeMounts")) {
        if (!volumes.contains(mount.path("name").asText())) {
          problem(at + ".volumeMounts.name", "not found: " + mount.path("name").asText());
        }
      }
    }
    for (JsonNode spread : pod.path("topologySpreadConstraints")) {
      oneOf(
          "topologySpreadConstraints.whenUnsatisfiable",
          spread.path("whenUnsatisfiable").asText(),
          List.of("DoNotSchedule", "ScheduleAnyway"));
      if (spread.path("maxSkew").asInt() < 1) {
        problem("topologySpreadConstraints.maxSkew", "must be greater than 0");
      }
    }
  }

  private void probe(String at, JsonNode probe, Set<String> portNames, boolean singleSuccess) {
    long handlers =
        List.of("httpGet", "tcpSocket", "exec", "grpc").stream().filter(probe::has).count();
    if (handlers != 1) {
      problem(at, "must specify exactly one handler, found " + handlers);
    }
    JsonNode port = probe.path(probe.has("httpGet") ? "httpGet" : "tcpSocket").path("port");
    if (port.isTextual() && !portNames.contains(port.asText())) {
      problem(at + ".port", "no container port named " + port.asText());
    } else if (port.isInt() && (port.asInt() < 1 || port.asInt() > 65535)) {
      problem(at + ".port", "must be between 1 and 65535");
    }
    optionalOneOf(
        at + ".httpGet.scheme", probe.path("httpGet").path("scheme"), List.of("HTTP", "HTTPS"));
    if (singleSuccess && probe.path("successThreshold").asInt(1) != 1) {
      problem(at + ".successThreshold", "must be 1");
    }
  }

  private void service(JsonNode spec) {
    optionalOneOf(
        "spec.type",
        spec.path("type"),
        List.of("ClusterIP", "NodePort", "LoadBalancer", "ExternalName"));
    Set<String> names = new HashSet<>();
    for (JsonNode port : spec.path("ports")) {
      port("spec.ports", port, "port");
      String name = port.path("name").asText("");
      if ((spec.path("ports").size() > 1 && !name.matches(DNS_LABEL))
          || (!name.isEmpty() && !names.add(name))) {
        problem("spec.ports.name", "each of several ports needs a unique DNS-1123 name: " + name);
      }
      if (port.path("targetPort").isTextual()
          && !port.path("targetPort").asText().matches(IANA_SVC_NAME)) {
        problem(
            "spec.ports.targetPort", port.path("targetPort").asText() + " is not an IANA_SVC_NAME");
      }
    }
  }

  private void port(String at, JsonNode port, String numberField) {
    int number = port.path(numberField).asInt();
    if (number < 1 || number > 65535) {
      problem(at + "." + numberField, number + " must be between 1 and 65535");
    }
    optionalOneOf(at + ".protocol", port.path("protocol"), PROTOCOLS);
    if (port.has("name") && !port.path("name").asText().matches(IANA_SVC_NAME)) {
      problem(
          at + ".name",
          port.path("name").asText()
              + " is not an IANA_SVC_NAME (at most 15 lower-case letters, digits, '-')");
    }
  }

  private void budget(JsonNode spec) {
    if (spec.has("minAvailable") == spec.has("maxUnavailable")) {
      problem("spec", "exactly one of minAvailable and maxUnavailable must be set");
    }
    optionalOneOf(
        "spec.unhealthyPodEvictionPolicy",
        spec.path("unhealthyPodEvictionPolicy"),
        List.of("IfHealthyBudget", "AlwaysAllow"));
  }

  private void autoscaler(JsonNode spec) {
    int min = spec.path("minReplicas").asInt(1);
    if (min < 1 || min > spec.path("maxReplicas").asInt()) {
      problem("spec.minReplicas", "must be at least 1 and at most maxReplicas");
    }
    for (JsonNode metric : spec.path("metrics")) {
      oneOf(
          "spec.metrics.type",
          metric.path("type").asText(),
          List.of("Resource", "Pods", "Object", "External", "ContainerResource"));
      metric
          .findValues("target")
          .forEach(
              t ->
                  oneOf(
                      "spec.metrics.target.type",
                      t.path("type").asText(),
                      List.of("Utilization", "Value", "AverageValue")));
    }
  }

  private void networkPolicy(JsonNode spec) {
    spec.path("policyTypes")
        .forEach(t -> oneOf("spec.policyTypes", t.asText(), List.of("Ingress", "Egress")));
    for (JsonNode protocol : spec.findValues("protocol")) {
      oneOf("spec.ports.protocol", protocol.asText(), PROTOCOLS);
    }
    for (JsonNode block : spec.findValues("ipBlock")) {
      Cidr cidr = Cidr.parse(block.path("cidr").asText());
      if (cidr == null) {
        problem("ipBlock.cidr", block.path("cidr").asText() + " is not a CIDR");
        continue;
      }
      for (JsonNode except : block.path("except")) {
        Cidr inner = Cidr.parse(except.asText());
        if (inner == null || !cidr.contains(inner)) {
          problem("ipBlock.except", except.asText() + " must be a CIDR within " + cidr);
        }
      }
    }
  }

  private void labelKey(String key) {
    String[] parts = key.split("/", -1);
    boolean valid =
        parts.length == 1
            ? key.matches(LABEL_NAME)
            : parts.length == 2
                && parts[0].length() <= 253
                && parts[0].matches(
                    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
                && parts[1].matches(LABEL_NAME);
    if (!valid) {
      problem("metadata.labels", key + " is not a valid label key");
    }
  }

  private void optionalOneOf(String field, JsonNode value, List<String> allowed) {
    if (!value.isMissingNode()) {
      oneOf(field, value.asText(), allowed);
    }
  }

  private void oneOf(String field, String value, List<String> allowed) {
    if (!allowed.contains(value)) {
      problem(field, "Unsupported value: \"" + value + "\": supported values: " + allowed);
    }
  }

  private void problem(String field, String message) {
    problems.add(where + ": " + field + ": " + message);
  }
}
