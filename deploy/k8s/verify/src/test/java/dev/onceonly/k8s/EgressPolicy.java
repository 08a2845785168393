package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.model.BrokerNodes;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the NetworkPolicies of a render let a pod reach, checked against the addresses its settings
 * name: the database of DB_URL; consumer-service's broker (RabbitMQ: RABBITMQ_HOST/RABBITMQ_PORT
 * and every node of RABBITMQ_ADDRESSES; Kafka when ONCEONLY_TRANSPORT=kafka: every server of
 * KAFKA_BOOTSTRAP_SERVERS); the providers of RECEIPTS_URL and PAYOUTS_URL; and every address of the
 * relay's declared destinations (RELAY_DESTINATIONS__*__HTTP_URL, __RABBITMQ_HOST/_PORT,
 * __RABBITMQ_ADDRESSES, __KAFKA_BOOTSTRAP_SERVERS). An address is reachable when a policy selecting
 * the pod has an egress rule with its port (or no ports) towards it: no "to" at all, an ipBlock,
 * or, for a Service of the render, a podSelector that selects the Service's pods.
 */
final class EgressPolicy {

  private final Rendered rendered;

  EgressPolicy(Rendered rendered) {
    this.rendered = rendered;
  }

  /** The configured addresses {@code workload}'s container cannot reach; empty when all can be. */
  List<String> unreachable(JsonNode workload) {
    JsonNode container = ContainerEnv.onlyContainer(workload);
    Map<String, ContainerEnv.Variable> env = ContainerEnv.of(rendered, container);
    List<String> problems = new ArrayList<>();
    for (String name : List.of("DB_URL", "RECEIPTS_URL", "PAYOUTS_URL")) {
      url(workload, name, value(env, name), problems);
    }
    String app = Rendered.podLabels(workload).path("app.kubernetes.io/name").asText();
    // Only the consumer talks to the broker; the others are given its address but never use it.
    if (app.equals("consumer-service")) {
      if ("kafka".equals(value(env, "ONCEONLY_TRANSPORT"))) {
        servers(
            workload, "KAFKA_BOOTSTRAP_SERVERS", value(env, "KAFKA_BOOTSTRAP_SERVERS"), problems);
      } else {
        rabbit(workload, "RABBITMQ", env, problems);
      }
    }
    for (String destination : destinations(env)) {
      String prefix = "RELAY_DESTINATIONS__" + destination + "__";
      url(workload, prefix + "HTTP_URL", value(env, prefix + "HTTP_URL"), problems);
      rabbit(workload, prefix + "RABBITMQ", env, problems);
      servers(
          workload,
          prefix + "KAFKA_BOOTSTRAP_SERVERS",
          value(env, prefix + "KAFKA_BOOTSTRAP_SERVERS"),
          problems);
    }
    return problems;
  }

  /** The names of the relay's destinations declared in the environment. */
  private static List<String> destinations(Map<String, ContainerEnv.Variable> env) {
    return env.keySet().stream()
        .filter(k -> k.startsWith("RELAY_DESTINATIONS__"))
        .map(k -> k.substring("RELAY_DESTINATIONS__".length()))
        .filter(k -> k.contains("__"))
        .map(k -> k.substring(0, k.indexOf("__")))
        .distinct()
        .sorted()
        .toList();
  }

  private static String value(Map<String, ContainerEnv.Variable> env, String name) {
    ContainerEnv.Variable variable = env.get(name);
    return variable == null || variable.value() == null || variable.value().isBlank()
        ? null
        : variable.value();
  }

  private void url(JsonNode workload, String setting, String value, List<String> problems) {
    if (value != null) {
      URI uri = URI.create(value.replaceFirst("^jdbc:", ""));
      int port = uri.getPort() != -1 ? uri.getPort() : defaultPort(uri.getScheme());
      check(workload, setting, uri.getHost(), port, problems);
    }
  }

  /** {@code <prefix>_HOST} and {@code _PORT}, or every node of {@code <prefix>_ADDRESSES}. */
  private void rabbit(
      JsonNode workload,
      String prefix,
      Map<String, ContainerEnv.Variable> env,
      List<String> problems) {
    String host = value(env, prefix + "_HOST");
    if (host != null) {
      String port = value(env, prefix + "_PORT");
      check(
          workload, prefix + "_HOST", host, port == null ? 5672 : Integer.parseInt(port), problems);
    }
    String nodes = value(env, prefix + "_ADDRESSES");
    if (nodes != null) {
      for (BrokerNodes.Node node : BrokerNodes.parse(nodes, prefix + "_ADDRESSES")) {
        check(workload, prefix + "_ADDRESSES", node.host(), node.port(), problems);
      }
    }
  }

  /** Every {@code host:port} of a Kafka bootstrap list. */
  private void servers(JsonNode workload, String setting, String value, List<String> problems) {
    if (value == null) {
      return;
    }
    for (String server : value.split(",")) {
      String trimmed = server.trim();
      int colon = trimmed.lastIndexOf(':');
      if (colon < 1) {
        problems.add(
            Rendered.describe(workload) + ": " + setting + " has '" + trimmed + "', not host:port");
        continue;
      }
      check(
          workload,
          setting,
          trimmed.substring(0, colon),
          Integer.parseInt(trimmed.substring(colon + 1)),
          problems);
    }
  }

  private void check(JsonNode workload, String setting, String host, int port, List<String> out) {
    JsonNode labels = Rendered.podLabels(workload);
    JsonNode service = service(host);
    for (JsonNode policy : rendered.all("NetworkPolicy")) {
      if (!Selectors.selects(policy.path("spec").path("podSelector"), labels)) {
        continue;
      }
      for (JsonNode rule : policy.path("spec").path("egress")) {
        if (allowsPort(rule, port) && allowsPeer(rule, service)) {
          return;
        }
      }
    }
    out.add(
        Rendered.describe(workload)
            + " cannot reach "
            + setting
            + " ("
            + host
            + ":"
            + port
            + "): no egress rule allows it");
  }

  private JsonNode service(String host) {
    String name = host.split("\\.")[0];
    return rendered.all("Service").stream()
        .filter(s -> Rendered.name(s).equals(name))
        .findFirst()
        .orElse(null);
  }

  private static boolean allowsPort(JsonNode rule, int port) {
    if (!rule.has("ports")) {
      return true;
    }
    for (JsonNode p : rule.path("ports")) {
      if (p.path("protocol").asText("TCP").equals("TCP") && p.path("port").asInt() == port) {
        return true;
      }
    }
    return false;
  }

  private static boolean allowsPeer(JsonNode rule, JsonNode service) {
    if (!rule.has("to")) {
      return true;
    }
    for (JsonNode peer : rule.path("to")) {
      if (peer.has("ipBlock")) {
        return true;
      }
      if (service != null
          && peer.has("podSelector")
          && !peer.has("namespaceSelector")
          && Selectors.selects(peer.path("podSelector"), service.path("spec").path("selector"))) {
        return true;
      }
    }
    return false;
  }

  private static int defaultPort(String scheme) {
    return switch (scheme) {
      case "https" -> 443;
      case "http" -> 80;
      case "postgresql" -> 5432;
      default -> throw new AssertionError("no default port for " + scheme);
    };
  }
}
