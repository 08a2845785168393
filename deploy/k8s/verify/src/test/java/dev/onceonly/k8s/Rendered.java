package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** One overlay rendered by {@code kubectl kustomize}: its objects as JSON trees. */
final class Rendered {

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  final String overlay;
  final String yaml;
  final List<JsonNode> objects;

  private Rendered(String overlay, String yaml, List<JsonNode> objects) {
    this.overlay = overlay;
    this.yaml = yaml;
    this.objects = objects;
  }

  /** The overlays under deploy/k8s/overlays. */
  static List<String> overlays() throws IOException {
    try (Stream<Path> dirs = Files.list(Repo.path("deploy/k8s/overlays"))) {
      return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  static Rendered overlay(String name) {
    return render("deploy/k8s/overlays/" + name);
  }

  /** Runs {@code kubectl kustomize <dir>}; fails with an install hint if kubectl is missing. */
  static Rendered render(String dir) {
    Path target = Repo.path(dir);
    ProcessBuilder builder =
        new ProcessBuilder("kubectl", "kustomize", target.toString()).redirectErrorStream(false);
    try {
      Process process;
      try {
        process = builder.start();
      } catch (IOException e) {
        throw new IllegalStateException(
            "kubectl is not installed: the manifests are rendered with `kubectl kustomize`"
                + " (kubectl 1.27+ includes kustomize v5; e.g. apt-get install kubectl from the"
                + " Kubernetes package repository)",
            e);
      }
      byte[] out = process.getInputStream().readAllBytes();
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new AssertionError("kubectl kustomize " + dir + " failed: " + err);
      }
      String yaml = new String(out, StandardCharsets.UTF_8);
      List<JsonNode> objects = new ArrayList<>();
      try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
        while (docs.hasNext()) {
          JsonNode doc = docs.next();
          if (doc != null && !doc.isNull() && !doc.isEmpty()) {
            objects.add(doc);
          }
        }
      }
      return new Rendered(dir, yaml, objects);
    } catch (IOException e) {
      throw new IllegalStateException("cannot render " + dir, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  List<JsonNode> all(String kind) {
    return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
  }

  JsonNode one(String kind, String name) {
    return objects.stream()
        .filter(o -> kind.equals(o.path("kind").asText()) && name.equals(name(o)))
        .findFirst()
        .orElseThrow(() -> new AssertionError(overlay + " has no " + kind + " " + name));
  }

  /** A generated object (ConfigMap, Secret) by the name before kustomize's hash suffix. */
  JsonNode generated(String kind, String baseName) {
    return objects.stream()
        .filter(o -> kind.equals(o.path("kind").asText()))
        .filter(o -> name(o).equals(baseName) || name(o).matches(baseName + "-[a-z0-9]{10}"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(overlay + " has no " + kind + " " + baseName));
  }

  /** Deployments and Jobs: the objects that run containers. */
  List<JsonNode> workloads() {
    return objects.stream()
        .filter(o -> List.of("Deployment", "Job").contains(o.path("kind").asText()))
        .toList();
  }

  static String name(JsonNode object) {
    return object.path("metadata").path("name").asText();
  }

  static String describe(JsonNode object) {
    return object.path("kind").asText() + " " + name(object);
  }

  static JsonNode podLabels(JsonNode workload) {
    return workload.path("spec").path("template").path("metadata").path("labels");
  }

  static JsonNode podSpec(JsonNode workload) {
    return workload.path("spec").path("template").path("spec");
  }
}
