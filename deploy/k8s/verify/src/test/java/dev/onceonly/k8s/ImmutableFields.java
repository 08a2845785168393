package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether one render applies over another, as {@code kubectl apply} (or Argo CD, Flux) would update
 * the objects the first one created: an object of the second render with the kind, namespace and
 * name of one of the first must keep the fields the API server refuses to change ("field is
 * immutable"). The fields are those of the API server's update validation for the kinds the
 * manifests use: a Job's pod template, selector, completions and completion mode; a Deployment's
 * selector; a PriorityClass's value and preemption policy; the data of a ConfigMap or Secret marked
 * {@code immutable}. Objects of other kinds, or with new names, always apply.
 */
final class ImmutableFields {

  private static final Map<String, List<String>> FIELDS =
      Map.of(
          "Job",
              List.of(
                  "/spec/template", "/spec/selector", "/spec/completions", "/spec/completionMode"),
          "Deployment", List.of("/spec/selector"),
          "PriorityClass", List.of("/value", "/preemptionPolicy"));

  private ImmutableFields() {}

  /** What the API server would refuse when {@code after} is applied over {@code before}. */
  static List<String> conflicts(List<JsonNode> before, List<JsonNode> after) {
    List<String> conflicts = new ArrayList<>();
    for (JsonNode next : after) {
      for (JsonNode previous : before) {
        if (sameObject(previous, next)) {
          conflicts.addAll(conflicts(previous, next));
        }
      }
    }
    return conflicts;
  }

  private static List<String> conflicts(JsonNode previous, JsonNode next) {
    String kind = next.path("kind").asText();
    List<String> fields = new ArrayList<>(FIELDS.getOrDefault(kind, List.of()));
    if ((kind.equals("ConfigMap") || kind.equals("Secret"))
        && previous.path("immutable").asBoolean(false)) {
      fields.addAll(List.of("/data", "/binaryData", "/immutable"));
    }
    List<String> conflicts = new ArrayList<>();
    for (String field : fields) {
      if (!previous.at(field).equals(next.at(field))) {
        conflicts.add(Rendered.describe(next) + ": " + field + " is immutable and would change");
      }
    }
    return conflicts;
  }

  private static boolean sameObject(JsonNode a, JsonNode b) {
    return a.path("kind").asText().equals(b.path("kind").asText())
        && a.path("metadata")
            .path("namespace")
            .asText()
            .equals(b.path("metadata").path("namespace").asText())
        && Rendered.name(a).equals(Rendered.name(b));
  }
}
