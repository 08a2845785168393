package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The optional components added to the prod overlay as their comments tell an operator to
 * (deploy/k8s/README.md): each renders objects the API server accepts and wires them to the objects
 * they serve.
 */
class OptionalComponentsTest {

  @Test
  void theIngressServesBothApisOverTlsOnly() {
    Rendered rendered = ManifestCopy.of("ingress").renderWith("prod", "ingress");
    JsonNode ingress = rendered.one("Ingress", "onceonly");
    List<String> services = new ArrayList<>();
    for (JsonNode rule : ingress.path("spec").path("rules")) {
      assertThat(hosts(ingress))
          .as("TLS for " + rule.path("host"))
          .contains(rule.path("host").asText());
      for (JsonNode path : rule.path("http").path("paths")) {
        JsonNode backend = path.path("backend").path("service");
        JsonNode service = rendered.one("Service", backend.path("name").asText());
        assertThat(service.path("spec").path("ports").findValuesAsText("name"))
            .as("the API port, never the management port")
            .contains(backend.path("port").path("name").asText());
        assertThat(backend.path("port").path("name").asText()).isEqualTo("http");
        services.add(backend.path("name").asText());
      }
    }
    assertThat(services).containsExactlyInAnyOrder("outbox-relay", "consumer-service");
    assertThat(StrictModels.problems(ingress)).isEmpty();
  }

  @Test
  void everyPodPullsWithTheRegistrySecret() {
    Rendered rendered = ManifestCopy.of("registry-auth").renderWith("prod", "registry-auth");
    for (JsonNode workload : rendered.workloads()) {
      String account = Rendered.podSpec(workload).path("serviceAccountName").asText();
      assertThat(
              rendered
                  .one("ServiceAccount", account)
                  .path("imagePullSecrets")
                  .findValuesAsText("name"))
          .as(Rendered.describe(workload))
          .containsExactly("onceonly-registry");
    }
  }

  private static List<String> hosts(JsonNode ingress) {
    List<String> hosts = new ArrayList<>();
    for (JsonNode tls : ingress.path("spec").path("tls")) {
      tls.path("hosts").forEach(h -> hosts.add(h.asText()));
    }
    return hosts;
  }
}
