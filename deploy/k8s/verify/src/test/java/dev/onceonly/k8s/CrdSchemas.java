package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Prometheus Operator's objects validated against the operator's own CustomResourceDefinition
 * schemas (vendored in src/test/resources/crds): types, enumerations, patterns such as a
 * duration's, and, as {@code kubectl apply --validate=strict} would, no field the schema does not
 * declare.
 */
final class CrdSchemas {

  private static final Map<String, String> FILES =
      Map.of(
          "ServiceMonitor", "crds/monitoring.coreos.com_servicemonitors.yaml",
          "PrometheusRule", "crds/monitoring.coreos.com_prometheusrules.yaml");
  private static final Map<String, JsonSchema> SCHEMAS = new ConcurrentHashMap<>();

  private CrdSchemas() {}

  /** Whether a CRD schema is vendored for {@code kind}. */
  static boolean covers(String kind) {
    return FILES.containsKey(kind);
  }

  static List<String> problems(JsonNode object) {
    String kind = object.path("kind").asText();
    JsonSchema schema =
        SCHEMAS.computeIfAbsent(
            kind + " " + object.path("apiVersion").asText(),
            k -> schema(kind, object.path("apiVersion").asText()));
    List<String> problems = new ArrayList<>();
    for (ValidationMessage message : schema.validate(object)) {
      problems.add(Rendered.describe(object) + ": " + message.getMessage());
    }
    return problems;
  }

  private static JsonSchema schema(String kind, String apiVersion) {
    JsonNode crd = crd(FILES.get(kind));
    String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
    for (JsonNode served : crd.path("spec").path("versions")) {
      if (served.path("name").asText().equals(version)) {
        JsonNode schema = served.path("schema").path("openAPIV3Schema").deepCopy();
        strict(schema);
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(schema);
      }
    }
    throw new AssertionError("the " + kind + " CRD serves no version " + version);
  }

  /** Unknown fields are errors: every object schema that lists its properties allows no others. */
  private static void strict(JsonNode schema) {
    if (schema instanceof ObjectNode object
        && object.has("properties")
        && !object.has("additionalProperties")
        && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
      object.put("additionalProperties", false);
    }
    schema.forEach(CrdSchemas::strict);
  }

  private static JsonNode crd(String resource) {
    try (InputStream in = CrdSchemas.class.getClassLoader().getResourceAsStream(resource);
        MappingIterator<JsonNode> docs = Rendered.YAML.readerFor(JsonNode.class).readValues(in)) {
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc != null && doc.path("kind").asText().equals("CustomResourceDefinition")) {
          return doc;
        }
      }
      throw new AssertionError(resource + " holds no CustomResourceDefinition");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
