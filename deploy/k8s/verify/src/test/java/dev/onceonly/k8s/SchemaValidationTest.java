package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every rendered object of every overlay is what the Kubernetes API server would accept. */
class SchemaValidationTest {

  @Test
  void everyRenderedObjectMatchesItsApiSchemaStrictly() throws IOException {
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (String overlay : Rendered.overlays()) {
      for (JsonNode object : Rendered.overlay(overlay).objects) {
        StrictModels.problems(object).forEach(p -> problems.add(overlay + ": " + p));
        checked++;
      }
    }
    assertThat(problems).isEmpty();
    assertThat(checked).isGreaterThan(40);
  }

  @Test
  void anUnknownFieldAWrongTypeAndABadNameAreCaught() throws IOException {
    JsonNode bad =
        Rendered.YAML.readTree(
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: Consumer_Service
              labels: {tier: "not valid!"}
            spec:
              replicas: "2"
              selector: {matchLabels: {app: x}}
              template:
                metadata: {labels: {app: x}}
                spec:
                  containers:
                    - name: x
                      image: x:1
                      env: [{name: PORT, value: 8080}]
            """);
    assertThat(String.join("\n", StrictModels.problems(bad))).contains("replicas");

    JsonNode typo =
        Rendered.YAML.readTree(
            """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: x, labels: {tier: "not valid!"}}
            spec:
              selector: {matchLabels: {app: x}}
              template:
                metadata: {labels: {app: x}}
                spec:
                  containers:
                    - name: x
                      image: x:1
                      readinessProbe: {httpGet: {path: /q/health/ready, port: 9000}, periodSecond: 5}
            """);
    assertThat(StrictModels.problems(typo))
        .anyMatch(p -> p.contains("readinessProbe.periodSecond: unknown field"))
        .anyMatch(p -> p.contains("label tier=not valid!"));

    JsonNode number =
        Rendered.YAML.readTree(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: Bad_Name}
            data: {HTTP_PORT: 8080}
            """);
    assertThat(String.join("\n", StrictModels.problems(number))).contains("HTTP_PORT");

    JsonNode name =
        Rendered.YAML.readTree(
            """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: Bad_Name}
            data: {HTTP_PORT: "8080"}
            """);
    assertThat(StrictModels.problems(name)).anyMatch(p -> p.contains("DNS-1123"));

    JsonNode old =
        Rendered.YAML.readTree(
            """
            apiVersion: policy/v1beta1
            kind: PodDisruptionBudget
            metadata: {name: x}
            spec: {maxUnavailable: 1}
            """);
    assertThat(StrictModels.problems(old)).anyMatch(p -> p.contains("not a known current API"));
  }
}
