package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The NetworkPolicies follow the settings (deploy/k8s/README.md "NetworkPolicies"): every database,
 * broker and provider address a pod is configured with is reachable on its port, a provider moved
 * to another port fails the build, the API ports admit only the namespaces marked for it, and DNS
 * works with NodeLocal DNSCache or GKE Cloud DNS through their components.
 */
class NetworkPolicyConfigTest {

  @Test
  void everyConfiguredAddressIsReachableInEveryOverlay() throws IOException {
    for (String overlay : Rendered.overlays()) {
      Rendered rendered = Rendered.overlay(overlay);
      EgressPolicy egress = new EgressPolicy(rendered);
      List<String> problems = new ArrayList<>();
      for (JsonNode workload : rendered.workloads()) {
        if (workload.path("metadata").path("labels").has("app.kubernetes.io/part-of")) {
          problems.addAll(egress.unreachable(workload));
        }
      }
      assertThat(problems).as(overlay).isEmpty();
    }
  }

  @Test
  void aProviderOnAnotherPortIsRefusedUntilItsPolicyAllowsIt() {
    ManifestCopy copy = ManifestCopy.of("provider-port");
    copy.edit(
        "deploy/k8s/overlays/prod/outbox-relay.env",
        "RECEIPTS_URL=https://mail-provider.example.com",
        "RECEIPTS_URL=https://mail-provider.example.com:8443");
    assertThat(copy.unreachable("deploy/k8s/overlays/prod", "outbox-relay"))
        .containsExactly(
            "Deployment outbox-relay cannot reach RECEIPTS_URL (mail-provider.example.com:8443):"
                + " no egress rule allows it");

    copy.edit(
        "deploy/k8s/overlays/prod/provider-egress.yaml",
        "          port: 443\n",
        "          port: 443\n        - protocol: TCP\n          port: 8443\n");
    assertThat(copy.unreachable("deploy/k8s/overlays/prod", "outbox-relay")).isEmpty();
  }

  @Test
  void apiPortsAdmitOnlyTheNamespacesMarkedForThem() {
    Rendered prod = Rendered.overlay("prod");
    for (String service : List.of("consumer-service", "outbox-relay")) {
      JsonNode container = ContainerEnv.onlyContainer(prod.one("Deployment", service));
      int http = ContainerEnv.containerPort(container, "http");
      JsonNode policy = prod.one("NetworkPolicy", service);
      int rules = 0;
      for (JsonNode rule : policy.path("spec").path("ingress")) {
        if (rule.path("ports").findValues("port").stream().anyMatch(p -> p.asInt() == http)) {
          rules++;
          assertThat(rule.path("from").toString())
              .as(service + ": the API port is not open to every namespace")
              .isEqualTo(
                  "[{\"namespaceSelector\":{\"matchLabels\":{\"onceonly.dev/api-access\":\"true\"}}}]");
        }
      }
      assertThat(rules).as(service).isEqualTo(1);
    }
  }

  @Test
  void nodeLocalDnsCacheAndCloudDnsAreReachableWithTheirComponents() {
    for (String[] dns :
        List.of(
            new String[] {"dns-nodelocal", "169.254.20.10/32"},
            new String[] {"dns-cloud-dns", "169.254.169.254/32"})) {
      ManifestCopy copy = ManifestCopy.of(dns[0]);
      JsonNode policy = copy.renderWith("prod", dns[0]).one("NetworkPolicy", "allow-" + dns[0]);
      JsonNode rule = policy.path("spec").path("egress").get(0);
      assertThat(policy.path("spec").path("podSelector").isEmpty()).as("every pod").isTrue();
      assertThat(rule.path("to").get(0).path("ipBlock").path("cidr").asText()).isEqualTo(dns[1]);
      assertThat(rule.path("ports").findValuesAsText("protocol")).containsExactly("UDP", "TCP");
      assertThat(rule.path("ports").findValues("port")).allMatch(p -> p.asInt() == 53);
    }
  }
}
