package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every overlay renders with kubectl kustomize, into one namespace, without name clashes. */
class RenderTest {

  /** Kinds that belong to no namespace. */
  static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "PriorityClass");

  @Test
  void theDevAndProdOverlaysExist() throws IOException {
    assertThat(Rendered.overlays()).contains("dev", "prod");
  }

  @Test
  void everyOverlayRendersIntoItsOwnNamespace() throws IOException {
    for (String overlay : Rendered.overlays()) {
      Rendered rendered = Rendered.overlay(overlay);
      List<JsonNode> namespaces = rendered.all("Namespace");
      assertThat(namespaces).as(overlay + " creates its namespace").hasSize(1);
      String namespace = Rendered.name(namespaces.get(0));
      Set<String> seen = new HashSet<>();
      for (JsonNode object : rendered.objects) {
        assertThat(object.path("apiVersion").asText()).as(overlay).isNotBlank();
        assertThat(Rendered.name(object)).as(overlay + " " + object.path("kind")).isNotBlank();
        assertThat(seen.add(Rendered.describe(object)))
            .as(overlay + ": " + Rendered.describe(object) + " twice")
            .isTrue();
        if (!CLUSTER_SCOPED.contains(object.path("kind").asText())) {
          assertThat(object.path("metadata").path("namespace").asText())
              .as(overlay + ": namespace of " + Rendered.describe(object))
              .isEqualTo(namespace);
        }
      }
      assertThat(rendered.all("Deployment"))
          .extracting(Rendered::name)
          .as(overlay)
          .contains("consumer-service", "outbox-relay");
    }
  }

  @Test
  void theBaseRendersAlone() {
    assertThat(Rendered.render("deploy/k8s/base").all("Deployment")).hasSize(2);
  }
}
