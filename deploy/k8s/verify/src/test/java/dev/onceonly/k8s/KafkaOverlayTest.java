package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dev overlay on Kafka (overlays/dev-kafka, components/kafka; docs/kafka.md): consumer-service
 * reads from a broker the render runs and can reach, the broker advertises the address the clients
 * bootstrap from, it is the Kafka the services are built against, and nothing of RabbitMQ is left.
 */
class KafkaOverlayTest {

  private static final Rendered DEV_KAFKA = Rendered.overlay("dev-kafka");

  @Test
  void consumerServiceReadsFromTheBrokerOfTheRenderInPlaceOfRabbitMq() {
    Map<String, ContainerEnv.Variable> env = consumerEnv(DEV_KAFKA);
    assertThat(env.get("ONCEONLY_TRANSPORT").value()).isEqualTo("kafka");
    String bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS").value();
    assertThat(bootstrap).isEqualTo("kafka:9092");

    JsonNode service = DEV_KAFKA.one("Service", "kafka");
    JsonNode broker = DEV_KAFKA.one("Deployment", "kafka");
    assertThat(Selectors.selects(service.path("spec").path("selector"), Rendered.podLabels(broker)))
        .as("the Service kafka selects the broker's pod")
        .isTrue();
    assertThat(service.path("spec").path("ports").findValues("port"))
        .anyMatch(p -> p.asInt() == 9092);
    assertThat(DEV_KAFKA.workloads())
        .noneMatch(w -> Rendered.name(w).equals("rabbitmq"))
        .allMatch(w -> !Rendered.podSpec(w).toString().contains("rabbitmq:"));
    assertThat(DEV_KAFKA.all("Service")).noneMatch(s -> Rendered.name(s).equals("rabbitmq"));
  }

  /**
   * A client bootstraps from one address and then connects to what the broker advertises: an
   * advertised listener other than the Service's name and port would let the first connection
   * succeed and every later one fail.
   */
  @Test
  void theBrokerAdvertisesTheAddressTheClientsBootstrapFrom() {
    JsonNode container = ContainerEnv.onlyContainer(DEV_KAFKA.one("Deployment", "kafka"));
    Map<String, ContainerEnv.Variable> broker = ContainerEnv.of(DEV_KAFKA, container);
    assertThat(broker.get("KAFKA_ADVERTISED_LISTENERS").value())
        .isEqualTo("PLAINTEXT://" + consumerEnv(DEV_KAFKA).get("KAFKA_BOOTSTRAP_SERVERS").value());
    assertThat(broker.get("KAFKA_PROCESS_ROLES").value()).isEqualTo("broker,controller");
    assertThat(ContainerEnv.containerPort(container, "kafka")).isEqualTo(9092);
  }

  @Test
  void theBrokerIsTheKafkaVersionTheServicesAreBuiltAgainst() {
    Matcher pinned =
        Pattern.compile("<kafka.version>([^<]+)</kafka.version>").matcher(Repo.read("pom.xml"));
    assertThat(pinned.find()).as("pom.xml pins kafka.version").isTrue();
    JsonNode container = ContainerEnv.onlyContainer(DEV_KAFKA.one("Deployment", "kafka"));
    assertThat(container.path("image").asText()).isEqualTo("apache/kafka:" + pinned.group(1));
  }

  @Test
  void withoutThePolicysPortTheConsumerCannotReachKafka() {
    assertThat(
            ManifestCopy.of("kafka-port")
                .edit(
                    "deploy/k8s/components/kafka/network-policy.yaml",
                    "        - protocol: TCP\n          port: 9092\n",
                    "")
                .unreachable("deploy/k8s/overlays/dev-kafka", "consumer-service"))
        .containsExactly(
            "Deployment consumer-service cannot reach KAFKA_BOOTSTRAP_SERVERS (kafka:9092):"
                + " no egress rule allows it");
  }

  /** The relay's declared destinations are addresses too: one moved to a closed port is found. */
  @Test
  void aDeclaredDestinationOnAClosedPortIsFound() {
    assertThat(
            ManifestCopy.of("destination-port")
                .edit(
                    "deploy/k8s/overlays/dev/kustomization.yaml",
                    "WEBHOOKS__HTTP_URL=http://provider-sandbox:8089/",
                    "WEBHOOKS__HTTP_URL=http://provider-sandbox:8090/")
                .unreachable("deploy/k8s/overlays/dev", "outbox-relay"))
        .containsExactly(
            "Deployment outbox-relay cannot reach RELAY_DESTINATIONS__WEBHOOKS__HTTP_URL"
                + " (provider-sandbox:8090): no egress rule allows it");
  }

  private static Map<String, ContainerEnv.Variable> consumerEnv(Rendered rendered) {
    JsonNode consumer = rendered.one("Deployment", "consumer-service");
    return ContainerEnv.of(rendered, ContainerEnv.onlyContainer(consumer));
  }
}
