package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.model.BrokerNodes;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the NetworkPolicies of a render let a pod reach, checked against the addresses its settings
 * name: the database of DB_URL, the broker of RABBITMQ_HOST/RABBITMQ_PORT and every node of
 * RABBITMQ_ADDRESSES, the providers of RECEIPTS_URL and PAYOUTS_URL. An address is reachable when a
 * policy selecting the pod has an egress rule with its port (or no ports) towards it: no "to" at
 * all, an ipBlock, or, for a Service of the render, a podSelector that selects the Service's pods.
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
      ContainerEnv.Variable url = env.get(name);
      if (url != null && url.value() != null) {
        URI uri = URI.create(url.value().replaceFirst("^jdbc:", ""));
        int port = uri.getPort() != -1 ? uri.getPort() : defaultPort(uri.getScheme());
        check(workload, name, uri.getHost(), port, problems);
      }
    }
    ContainerEnv.Variable host = env.get("RABBITMQ_HOST");
    String app = Rendered.podLabels(workload).path("app.kubernetes.io/name").asText();
    // Only the consumer talks to the broker; the others are given its address but never use it.
    if (host != null && app.equals("consumer-service")) {
      int port = Integer.parseInt(env.get("RABBITMQ_PORT").value());
      check(workload, "RABBITMQ_HOST", host.value(), port, problems);
      ContainerEnv.Variable nodes = env.get("RABBITMQ_ADDRESSES");
      if (nodes != null && nodes.value() != null && !nodes.value().isBlank()) {
        for (BrokerNodes.Node node : BrokerNodes.parse(nodes.value(), "RABBITMQ_ADDRESSES")) {
          check(workload, "RABBITMQ_ADDRESSES", node.host(), node.port(), problems);
        }
      }
    }
    return problems;
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
