package dev.onceonly.testsupport.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads every operation of an OpenAPI document (JSON), with its parameters and body fields. */
public final class OpenApiOperations {

  private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");

  private OpenApiOperations() {}

  public static List<Operation> parse(String document) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(document);
    } catch (IOException e) {
      throw new UncheckedIOException("the OpenAPI document is not JSON", e);
    }
    List<Operation> operations = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> paths = root.path("paths").fields();
        paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        if (!METHODS.contains(op.getKey())) {
          continue;
        }
        operations.add(
            new Operation(
                op.getKey().toUpperCase(),
                path.getKey(),
                parameters(root, path.getValue(), op.getValue()),
                bodyTextFields(root, op.getValue())));
      }
    }
    return operations;
  }

  private static List<Operation.Parameter> parameters(JsonNode root, JsonNode path, JsonNode op) {
    List<Operation.Parameter> parameters = new ArrayList<>();
    for (JsonNode holder : List.of(path, op)) {
      for (JsonNode parameter : holder.path("parameters")) {
        JsonNode resolved = resolve(root, parameter);
        JsonNode schema = resolve(root, resolved.path("schema"));
        parameters.add(
            new Operation.Parameter(
                resolved.path("name").asText(),
                resolved.path("in").asText(),
                schema.path("type").asText("string"),
                schema.path("format").asText(null)));
      }
    }
    return parameters;
  }

  private static List<String> bodyTextFields(JsonNode root, JsonNode op) {
    JsonNode content = op.path("requestBody").path("content");
    if (content.isMissingNode()) {
      return null;
    }
    List<String> fields = new ArrayList<>();
    JsonNode schema = resolve(root, content.path("application/json").path("schema"));
    for (Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        properties.hasNext(); ) {
      Map.Entry<String, JsonNode> property = properties.next();
      if ("string".equals(resolve(root, property.getValue()).path("type").asText())) {
        fields.add(property.getKey());
      }
    }
    return fields;
  }

  private static JsonNode resolve(JsonNode root, JsonNode node) {
    String ref = node.path("$ref").asText(null);
    if (ref == null || !ref.startsWith("#/")) {
      return node;
    }
    JsonNode target = root;
    for (String part : ref.substring(2).split("/")) {
      target = target.path(part);
    }
    return target;
  }
}
