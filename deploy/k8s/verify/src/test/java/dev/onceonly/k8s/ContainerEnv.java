package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A container's environment as the kubelet builds it: {@code envFrom} ConfigMaps first, then {@code
 * env} entries (values, ConfigMap and Secret keys, pod fields), later ones winning.
 */
final class ContainerEnv {

  /** Where one variable comes from. */
  enum From {
    VALUE,
    CONFIG_MAP,
    SECRET,
    FIELD
  }

  /** One variable: its source, the object and key it names, and its value when resolvable. */
  record Variable(From from, String object, String key, boolean optional, String value) {}

  private ContainerEnv() {}

  static JsonNode container(JsonNode workload, String name) {
    for (JsonNode container : Rendered.podSpec(workload).path("containers")) {
      if (container.path("name").asText().equals(name)) {
        return container;
      }
    }
    throw new AssertionError(Rendered.describe(workload) + " has no container " + name);
  }

  static JsonNode onlyContainer(JsonNode workload) {
    JsonNode containers = Rendered.podSpec(workload).path("containers");
    if (containers.size() != 1) {
      throw new AssertionError(Rendered.describe(workload) + " should run one container");
    }
    return containers.get(0);
  }

  /**
   * The variables of {@code container}. A referenced ConfigMap or Secret found in {@code rendered}
   * gives the value; a Secret that is not part of the render (prod) leaves it null. A missing key
   * in a rendered ConfigMap or Secret fails, as the kubelet would refuse to start the container.
   */
  static Map<String, Variable> of(Rendered rendered, JsonNode container) {
    Map<String, Variable> env = new LinkedHashMap<>();
    for (JsonNode source : container.path("envFrom")) {
      String name = source.path("configMapRef").path("name").asText(null);
      if (name == null) {
        throw new AssertionError("only configMapRef is used in envFrom: " + source);
      }
      JsonNode data = rendered.one("ConfigMap", name).path("data");
      data.fields()
          .forEachRemaining(
              e ->
                  env.put(
                      e.getKey(),
                      new Variable(
                          From.CONFIG_MAP, name, e.getKey(), false, e.getValue().asText())));
    }
    for (JsonNode entry : container.path("env")) {
      String name = entry.path("name").asText();
      JsonNode valueFrom = entry.path("valueFrom");
      if (entry.has("value")) {
        env.put(name, new Variable(From.VALUE, null, null, false, entry.path("value").asText()));
      } else if (valueFrom.has("configMapKeyRef")) {
        JsonNode ref = valueFrom.path("configMapKeyRef");
        String value = key(rendered, "ConfigMap", ref).orElse(null);
        env.put(
            name,
            new Variable(
                From.CONFIG_MAP,
                ref.path("name").asText(),
                ref.path("key").asText(),
                ref.path("optional").asBoolean(false),
                value));
      } else if (valueFrom.has("secretKeyRef")) {
        JsonNode ref = valueFrom.path("secretKeyRef");
        String value = key(rendered, "Secret", ref).orElse(null);
        env.put(
            name,
            new Variable(
                From.SECRET,
                ref.path("name").asText(),
                ref.path("key").asText(),
                ref.path("optional").asBoolean(false),
                value));
      } else if (valueFrom.has("fieldRef")) {
        env.put(
            name,
            new Variable(
                From.FIELD,
                null,
                valueFrom.path("fieldRef").path("fieldPath").asText(),
                false,
                null));
      } else {
        throw new AssertionError("unsupported env entry " + entry);
      }
    }
    return env;
  }

  /** The value of a referenced key, empty when the object is not in the render. */
  private static Optional<String> key(Rendered rendered, String kind, JsonNode ref) {
    String name = ref.path("name").asText();
    String key = ref.path("key").asText();
    Optional<JsonNode> object =
        rendered.all(kind).stream().filter(o -> Rendered.name(o).equals(name)).findFirst();
    if (object.isEmpty()) {
      return Optional.empty();
    }
    JsonNode data = object.get().path("data");
    if (!data.has(key)) {
      throw new AssertionError("couldn't find key " + key + " in " + kind + " " + name);
    }
    String raw = data.path(key).asText();
    return Optional.of(
        kind.equals("Secret")
            ? new String(Base64.getMimeDecoder().decode(raw), StandardCharsets.UTF_8)
            : raw);
  }

  /** A container's port number by its name. */
  static int containerPort(JsonNode container, String name) {
    for (JsonNode port : container.path("ports")) {
      if (port.path("name").asText().equals(name)) {
        return port.path("containerPort").asInt();
      }
    }
    throw new AssertionError("container " + container.path("name") + " has no port " + name);
  }

  /** A probe's port as a number (named ports resolved). */
  static int probePort(JsonNode container, JsonNode probe) {
    JsonNode port = probe.path("httpGet").path("port");
    return port.isInt() ? port.asInt() : containerPort(container, port.asText());
  }
}
