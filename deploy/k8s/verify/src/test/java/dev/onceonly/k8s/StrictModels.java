package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Validates rendered objects strictly against the Kubernetes API as modelled by fabric8 (the
 * version the Quarkus BOM manages: Kubernetes 1.34) and, for the Prometheus Operator's
 * ServiceMonitor and PrometheusRule, fabric8's models of those CRDs. Only current GA API versions
 * are known. A field the model does not have (fabric8 keeps it in {@code additionalProperties}), a
 * scalar of the wrong type (no coercion: {@code "2"} is not an int, {@code 8080} is not a string),
 * a name or label the API server would refuse: each is a problem with its path. Then the API
 * server's own rules that no schema of types says ({@link ApiRules}: enumerations, a selector that
 * must select its pods, exclusive fields, ranges), and for the Prometheus Operator's kinds the
 * schema of its CustomResourceDefinition ({@link CrdSchemas}).
 */
final class StrictModels {

  static final Map<String, Class<?>> KINDS =
      Map.ofEntries(
          Map.entry("v1/Namespace", Namespace.class),
          Map.entry("v1/ServiceAccount", ServiceAccount.class),
          Map.entry("v1/Service", Service.class),
          Map.entry("v1/ConfigMap", ConfigMap.class),
          Map.entry("v1/Secret", Secret.class),
          Map.entry("apps/v1/Deployment", Deployment.class),
          Map.entry("batch/v1/Job", Job.class),
          Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
          Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
          Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
          Map.entry("networking.k8s.io/v1/Ingress", Ingress.class),
          Map.entry("scheduling.k8s.io/v1/PriorityClass", PriorityClass.class),
          Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
          Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class));

  private static final String DNS_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String LABEL_VALUE = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
  private static final ObjectMapper STRICT = strictMapper();

  private StrictModels() {}

  static ObjectMapper strictMapper() {
    JsonMapper mapper =
        JsonMapper.builder()
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            .build();
    for (LogicalType type : List.of(LogicalType.Textual, LogicalType.Integer, LogicalType.Float)) {
      for (CoercionInputShape shape :
          List.of(
              CoercionInputShape.String,
              CoercionInputShape.Integer,
              CoercionInputShape.Float,
              CoercionInputShape.Boolean)) {
        mapper.coercionConfigFor(type).setCoercion(shape, CoercionAction.Fail);
      }
    }
    mapper
        .coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    // Same-type input stays allowed: an int is an int.
    mapper
        .coercionConfigFor(LogicalType.Integer)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.TryConvert);
    mapper
        .coercionConfigFor(LogicalType.Float)
        .setCoercion(CoercionInputShape.Float, CoercionAction.TryConvert)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.TryConvert);
    mapper
        .coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.String, CoercionAction.TryConvert);
    return mapper;
  }

  /** Every problem of one object; empty when the API server would take it. */
  static List<String> problems(JsonNode object) {
    String apiVersion = object.path("apiVersion").asText();
    String kind = object.path("kind").asText();
    String where = kind + " " + Rendered.name(object);
    Class<?> model = KINDS.get(apiVersion + "/" + kind);
    if (model == null) {
      return List.of(where + ": " + apiVersion + " " + kind + " is not a known current API");
    }
    List<String> problems = new ArrayList<>();
    try {
      Object typed = STRICT.treeToValue(object, model);
      unknownFields(typed, kind, problems);
    } catch (JsonMappingException e) {
      problems.add(where + " at " + path(e) + ": " + e.getOriginalMessage());
      return problems;
    } catch (Exception e) {
      problems.add(where + ": " + e.getMessage().lines().findFirst().orElse(""));
      return problems;
    }
    JsonNode metadata = object.path("metadata");
    String name = metadata.path("name").asText();
    if (name.length() > 253 || !name.matches(DNS_LABEL + "(\\." + DNS_LABEL + ")*")) {
      problems.add(where + ": metadata.name is not a DNS-1123 subdomain");
    }
    if ((kind.equals("Service") || kind.equals("Namespace") || kind.equals("Job"))
        && name.length() > 63) {
      problems.add(where + ": metadata.name is longer than 63 characters");
    }
    problems.addAll(ApiRules.problems(object));
    if (CrdSchemas.covers(kind)) {
      problems.addAll(CrdSchemas.problems(object));
    }
    labels(metadata.path("labels"), where + " metadata.labels", problems);
    labels(
        object.path("spec").path("template").path("metadata").path("labels"),
        where + " pod labels",
        problems);
    return problems;
  }

  private static String path(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  private static void labels(JsonNode labels, String where, List<String> problems) {
    labels
        .fields()
        .forEachRemaining(
            e -> {
              String value = e.getValue().asText();
              if (value.length() > 63 || !value.matches(LABEL_VALUE)) {
                problems.add(where + ": label " + e.getKey() + "=" + value + " is not valid");
              }
            });
  }

  /** Walks the typed object; every non-empty {@code additionalProperties} is an unknown field. */
  private static void unknownFields(Object value, String path, List<String> problems) {
    if (value == null) {
      return;
    }
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        unknownFields(list.get(i), path + "[" + i + "]", problems);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> unknownFields(v, path + "." + k, problems));
      return;
    }
    if (!value.getClass().getName().startsWith("io.fabric8.")) {
      return;
    }
    for (Method getter : value.getClass().getMethods()) {
      if (getter.getParameterCount() != 0
          || Modifier.isStatic(getter.getModifiers())
          || !getter.getName().startsWith("get")
          || getter.getDeclaringClass() == Object.class) {
        continue;
      }
      Object child;
      try {
        child = getter.invoke(value);
      } catch (IllegalAccessException | InvocationTargetException e) {
        continue;
      }
      if (getter.getName().equals("getAdditionalProperties")) {
        if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
          extra.keySet().forEach(k -> problems.add(path + "." + k + ": unknown field"));
        }
        continue;
      }
      String field =
          Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
      unknownFields(child, path + "." + field, problems);
    }
  }
}
