package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.model.BrokerNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The RabbitMQ Cluster Operator example (deploy/k8s/examples/rabbitmq-cluster-operator) fits
 * OnceOnly: the prod overlay with the example's component gives the services every node of the
 * cluster on its TLS port, each address named by the nodes' certificate, the vhost and user the
 * Topology Operator makes, and an egress policy that reaches them.
 */
class RabbitmqClusterExampleTest {

  private static final String EXAMPLE = "deploy/k8s/examples/rabbitmq-cluster-operator";

  @Test
  void theProdOverlayWithTheExampleConnectsToEveryNodeOverTls() {
    Rendered example = Rendered.render(EXAMPLE);
    JsonNode cluster = example.all("RabbitmqCluster").get(0);
    String name = Rendered.name(cluster);
    String namespace = cluster.path("metadata").path("namespace").asText();
    JsonNode spec = cluster.path("spec");
    Map<String, ContainerEnv.Variable> env = consumerEnv();

    List<BrokerNodes.Node> expected = new ArrayList<>();
    for (int i = 0; i < spec.path("replicas").asInt(); i++) {
      expected.add(
          new BrokerNodes.Node(
              name + "-server-" + i + "." + name + "-nodes." + namespace + ".svc", 5671));
    }
    assertThat(expected).hasSize(3);
    assertThat(BrokerNodes.parse(env.get("RABBITMQ_ADDRESSES").value(), "RABBITMQ_ADDRESSES"))
        .containsExactlyElementsOf(expected);
    assertThat(env.get("RABBITMQ_TLS").value()).isEqualTo("true");
    assertThat(spec.path("tls").path("disableNonTLSListeners").asBoolean()).isTrue();
    assertThat(spec.path("rabbitmq").path("additionalConfig").asText())
        .contains("cluster_partition_handling = pause_minority");
    assertThat(env.get("RABBITMQ_QUEUE_TYPE").value()).isEqualTo("quorum");

    JsonNode certificate = example.all("Certificate").get(0);
    assertThat(certificate.path("spec").path("secretName").asText())
        .isEqualTo(spec.path("tls").path("secretName").asText());
    List<String> dnsNames = new ArrayList<>();
    certificate.path("spec").path("dnsNames").forEach(n -> dnsNames.add(n.asText()));
    assertThat(dnsNames).containsAll(expected.stream().map(BrokerNodes.Node::host).toList());
  }

  @Test
  void theServicesUserMayUseItsVhostOnThatCluster() {
    Rendered example = Rendered.render(EXAMPLE);
    String cluster = Rendered.name(example.all("RabbitmqCluster").get(0));
    Map<String, ContainerEnv.Variable> env = consumerEnv();
    String vhost = env.get("RABBITMQ_VHOST").value();

    assertThat(example.all("Vhost"))
        .extracting(v -> v.path("spec").path("name").asText())
        .containsExactly(vhost);
    JsonNode permission = example.all("Permission").get(0).path("spec");
    assertThat(permission.path("vhost").asText()).isEqualTo(vhost);
    assertThat(permission.path("userReference").path("name").asText())
        .isEqualTo(Rendered.name(example.all("User").get(0)));
    // the services declare their exchanges and queues themselves
    for (String right : List.of("configure", "write", "read")) {
      assertThat(permission.path("permissions").path(right).asText()).as(right).isEqualTo(".*");
    }
    for (String kind : List.of("Vhost", "User", "Permission")) {
      JsonNode reference = example.all(kind).get(0).path("spec").path("rabbitmqClusterReference");
      assertThat(reference.path("name").asText()).as(kind).isEqualTo(cluster);
    }
  }

  @Test
  void theConsumersEgressPolicyReachesEveryNode() {
    ManifestCopy copy = ManifestCopy.of("rabbitmq-cluster-operator");
    write(copy);
    assertThat(copy.unreachable("deploy/k8s/overlays/prod-rabbitmq", "consumer-service")).isEmpty();
  }

  private static Map<String, ContainerEnv.Variable> consumerEnv() {
    ManifestCopy copy = ManifestCopy.of("rabbitmq-cluster-operator-env");
    write(copy);
    Rendered prod = copy.render("deploy/k8s/overlays/prod-rabbitmq");
    JsonNode consumer = prod.one("Deployment", "consumer-service");
    return ContainerEnv.of(prod, ContainerEnv.onlyContainer(consumer));
  }

  /** The prod overlay with the example's component, as its kustomization.yaml tells to add it. */
  private static void write(ManifestCopy copy) {
    copy.write(
        "deploy/k8s/overlays/prod-rabbitmq/kustomization.yaml",
        """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources:
          - ../prod
        components:
          - ../../examples/rabbitmq-cluster-operator/onceonly
        """);
  }
}
