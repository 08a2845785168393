package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The mistakes a schema of types alone lets through, each made in an object of the real prod render
 * and each refused with the field it concerns (the API server's own rules, {@link ApiRules}, which
 * SchemaValidationTest applies to every render).
 */
class ApiRulesTest {

  private static Rendered prod;

  @BeforeAll
  static void render() {
    prod = Rendered.overlay("prod");
  }

  @Test
  void theRealRenderBreaksNoRule() {
    prod.objects.forEach(o -> assertThat(ApiRules.problems(o)).isEmpty());
  }

  @Test
  void aSelectorThatDoesNotMatchItsPodsIsRefused() {
    assertRefused(
        "Deployment",
        "consumer-service",
        d -> labels(d.path("spec").path("template")).put("app.kubernetes.io/name", "consumer"),
        "Deployment consumer-service: spec.template.metadata.labels: `selector` does not match"
            + " template `labels`");
  }

  @Test
  void anUnknownPullPolicyIsRefused() {
    assertRefused(
        "Deployment",
        "outbox-relay",
        d -> container(d).put("imagePullPolicy", "Sometimes"),
        "Deployment outbox-relay: containers[outbox-relay].imagePullPolicy: Unsupported value:"
            + " \"Sometimes\"");
  }

  @Test
  void anUnknownProtocolIsRefused() {
    assertRefused(
        "Service",
        "consumer-service",
        s -> ((ObjectNode) s.path("spec").path("ports").get(0)).put("protocol", "TCPX"),
        "Service consumer-service: spec.ports.protocol: Unsupported value: \"TCPX\"");
    assertRefused(
        "NetworkPolicy",
        "consumer-service",
        p ->
            ((ObjectNode) p.path("spec").path("egress").get(0).path("ports").get(0))
                .put("protocol", "TCPX"),
        "NetworkPolicy consumer-service: spec.ports.protocol: Unsupported value: \"TCPX\"");
  }

  @Test
  void aBudgetWithBothMinAvailableAndMaxUnavailableIsRefused() {
    assertRefused(
        "PodDisruptionBudget",
        "outbox-relay",
        b -> ((ObjectNode) b.path("spec")).put("minAvailable", 1),
        "PodDisruptionBudget outbox-relay: spec: exactly one of minAvailable and maxUnavailable");
  }

  @Test
  void anAutoscalerWhoseMinimumExceedsItsMaximumIsRefused() {
    assertRefused(
        "HorizontalPodAutoscaler",
        "outbox-relay",
        h -> ((ObjectNode) h.path("spec")).put("minReplicas", 7),
        "HorizontalPodAutoscaler outbox-relay: spec.minReplicas: must be at least 1 and at most"
            + " maxReplicas");
  }

  @Test
  void aPortNameLongerThanFifteenCharactersIsRefused() {
    assertRefused(
        "Deployment",
        "consumer-service",
        d -> ((ObjectNode) container(d).path("ports").get(1)).put("name", "management-metrics"),
        "Deployment consumer-service: containers[consumer-service].ports.name: management-metrics is"
            + " not an IANA_SVC_NAME");
  }

  @Test
  void aProbeOnAPortTheContainerDoesNotNameIsRefused() {
    assertRefused(
        "Deployment",
        "consumer-service",
        d -> ((ObjectNode) container(d).path("livenessProbe").path("httpGet")).put("port", "mgmt"),
        "Deployment consumer-service: containers[consumer-service].livenessProbe.port: no container"
            + " port named mgmt");
  }

  @Test
  void requestsAboveLimitsAndCidrsOutsideTheirBlockAreRefused() {
    assertRefused(
        "Deployment",
        "outbox-relay",
        d -> ((ObjectNode) container(d).path("resources").path("requests")).put("memory", "1Gi"),
        "Deployment outbox-relay: containers[outbox-relay].resources.requests.memory: must be less"
            + " than or equal to the limit");
    assertRefused(
        "NetworkPolicy",
        "outbox-relay-providers",
        p ->
            ((ObjectNode) p.path("spec").path("egress").get(0).path("to").get(0).path("ipBlock"))
                .put("cidr", "10.0.0.0/8")
                .putArray("except")
                .add("192.168.0.0/16"),
        "NetworkPolicy outbox-relay-providers: ipBlock.except: 192.168.0.0/16 must be a CIDR within"
            + " 10.0.0.0/8");
  }

  @Test
  void monitoringObjectsFollowTheirCustomResourceDefinitions() {
    assertRefused(
        "ServiceMonitor",
        "outbox-relay",
        m -> ((ObjectNode) m.path("spec").path("endpoints").get(0)).put("scheme", "ftp"),
        "ServiceMonitor outbox-relay: $.spec.endpoints[0].scheme");
    assertRefused(
        "ServiceMonitor",
        "consumer-service",
        m -> ((ObjectNode) m.path("spec").path("endpoints").get(0)).put("intervall", "30s"),
        "ServiceMonitor consumer-service: $.spec.endpoints[0]: property 'intervall' is not defined");
    assertRefused(
        "PrometheusRule",
        "onceonly",
        r ->
            ((ObjectNode) r.path("spec").path("groups").get(0).path("rules").get(0))
                .put("for", "10 minutes"),
        "PrometheusRule onceonly: $.spec.groups[0].rules[0].for");
  }

  private static void assertRefused(
      String kind, String name, Consumer<JsonNode> mistake, String problem) {
    JsonNode object = prod.one(kind, name).deepCopy();
    mistake.accept(object);
    assertThat(StrictModels.problems(object)).anyMatch(p -> p.startsWith(problem));
  }

  private static ObjectNode container(JsonNode workload) {
    return (ObjectNode) Rendered.podSpec(workload).path("containers").get(0);
  }

  private static ObjectNode labels(JsonNode template) {
    return (ObjectNode) template.path("metadata").path("labels");
  }
}
