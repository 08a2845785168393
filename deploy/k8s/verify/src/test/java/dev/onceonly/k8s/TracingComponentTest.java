package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * components/tracing added to the prod overlay, as its README tells a user to: tracing switched on
 * for both services, and the default-deny policies opened for OTLP, nothing else changed.
 */
class TracingComponentTest {

  private static final String OVERLAY = "deploy/k8s/verify/target/prod-with-tracing";

  private static Rendered prod;
  private static Rendered traced;

  @BeforeAll
  static void render() throws IOException {
    Path dir = Repo.path(OVERLAY);
    Files.createDirectories(dir);
    Files.writeString(
        dir.resolve("kustomization.yaml"),
        """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources:
          - ../../../overlays/prod
        components:
          - ../../../components/tracing
        """);
    prod = Rendered.overlay("prod");
    traced = Rendered.render(OVERLAY);
  }

  @Test
  void tracingIsOffWithoutTheComponentAndOnWithIt() {
    assertThat(prod.generated("ConfigMap", "onceonly-config").path("data").has("OTEL_SDK_DISABLED"))
        .as("services default to OTEL_SDK_DISABLED=true")
        .isFalse();
    JsonNode data = traced.generated("ConfigMap", "onceonly-config").path("data");
    assertThat(data.path("OTEL_SDK_DISABLED").asText()).isEqualTo("false");
    assertThat(data.path("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").asText()).startsWith("http");
    assertThat(data.path("DB_URL").asText())
        .as("merged into the overlay's settings, not replacing them")
        .isEqualTo(
            prod.generated("ConfigMap", "onceonly-config").path("data").path("DB_URL").asText());
    String configName = Rendered.name(traced.generated("ConfigMap", "onceonly-config"));
    for (String deployment : List.of("consumer-service", "outbox-relay")) {
      assertThat(traced.one("Deployment", deployment).toString())
          .as(deployment + " reads the merged ConfigMap")
          .contains("\"" + configName + "\"");
    }
  }

  @Test
  void bothServicesMayReachACollectorAndNothingElseIsOpened() {
    JsonNode policy = traced.one("NetworkPolicy", "onceonly-otlp-egress");
    JsonNode selector = policy.path("spec").path("podSelector");
    for (String deployment : List.of("consumer-service", "outbox-relay")) {
      String name =
          traced
              .one("Deployment", deployment)
              .path("spec")
              .path("template")
              .path("metadata")
              .path("labels")
              .path("app.kubernetes.io/name")
              .asText();
      assertThat(selector.path("matchExpressions").get(0).path("values").toString())
          .contains("\"" + name + "\"");
    }
    List<Integer> ports = new ArrayList<>();
    policy
        .path("spec")
        .path("egress")
        .forEach(rule -> rule.path("ports").forEach(p -> ports.add(p.path("port").asInt())));
    assertThat(ports).containsExactlyInAnyOrder(4317, 4318);
    assertThat(policy.path("spec").path("ingress").isMissingNode()).isTrue();
    assertThat(traced.objects.size()).isEqualTo(prod.objects.size() + 1);
  }

  @Test
  void everyObjectStillMatchesItsApiSchema() {
    List<String> problems = new ArrayList<>();
    traced.objects.forEach(o -> problems.addAll(StrictModels.problems(o)));
    assertThat(problems).isEmpty();
  }
}
