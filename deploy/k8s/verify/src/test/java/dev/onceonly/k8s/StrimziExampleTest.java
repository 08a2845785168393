package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The Strimzi example (deploy/k8s/examples/strimzi-kafka) fits consumer-service as it is built: the
 * cluster's topics are the ones its Kafka channels read and dead-letter to, its user may do exactly
 * that, and the prod overlay with components/kafka and the example's component reaches the
 * cluster's TLS listener with the cluster's CA and the user's password.
 */
class StrimziExampleTest {

  private static final String EXAMPLE = "deploy/k8s/examples/strimzi-kafka";

  @Test
  void theClusterHasEveryTopicTheConsumersReadAndDeadLetterTo() throws IOException {
    Rendered cluster = Rendered.render(EXAMPLE);
    Set<String> topics = new TreeSet<>();
    cluster.all("KafkaTopic").forEach(t -> topics.add(Rendered.name(t)));
    Channels channels = Channels.ofConsumerService();
    assertThat(topics).containsAll(channels.read()).containsAll(channels.deadLetters());

    JsonNode user = cluster.one("KafkaUser", "consumer-service");
    for (String topic : channels.read()) {
      assertThat(allowed(user, "topic", topic)).as("Read on " + topic).contains("Read");
    }
    for (String topic : channels.deadLetters()) {
      assertThat(allowed(user, "topic", topic)).as("Write on " + topic).contains("Write");
    }
    for (String group : channels.groups()) {
      assertThat(allowed(user, "group", group)).as("Read on group " + group).contains("Read");
    }
  }

  @Test
  void theProdOverlayWithTheExampleReachesTheTlsListenerAsTheUser() {
    ManifestCopy copy = ManifestCopy.of("strimzi");
    copy.write(
        "deploy/k8s/overlays/prod-strimzi/kustomization.yaml",
        """
        apiVersion: kustomize.config.k8s.io/v1beta1
        kind: Kustomization
        resources:
          - ../prod
        components:
          - ../../components/kafka
          - ../../examples/strimzi-kafka/consumer-service
        """);
    Rendered prod = copy.render("deploy/k8s/overlays/prod-strimzi");
    Rendered cluster = Rendered.render(EXAMPLE);
    JsonNode kafka = cluster.all("Kafka").get(0);
    JsonNode listener = kafka.path("spec").path("kafka").path("listeners").get(0);
    JsonNode consumer = prod.one("Deployment", "consumer-service");
    JsonNode container = ContainerEnv.onlyContainer(consumer);
    Map<String, ContainerEnv.Variable> env = ContainerEnv.of(prod, container);

    assertThat(env.get("ONCEONLY_TRANSPORT").value()).isEqualTo("kafka");
    assertThat(env.get("KAFKA_BOOTSTRAP_SERVERS").value())
        .isEqualTo(
            Rendered.name(kafka)
                + "-kafka-bootstrap."
                + kafka.path("metadata").path("namespace").asText()
                + ":"
                + listener.path("port").asInt());
    assertThat(listener.path("tls").asBoolean()).isTrue();
    assertThat(env.get("MP_MESSAGING_CONNECTOR_SMALLRYE_KAFKA_SECURITY_PROTOCOL").value())
        .isEqualTo("SASL_SSL");
    assertThat(listener.path("authentication").path("type").asText())
        .isEqualTo(
            env.get("MP_MESSAGING_CONNECTOR_SMALLRYE_KAFKA_SASL_MECHANISM").value().toLowerCase());
    assertThat(env.get("MP_MESSAGING_CONNECTOR_SMALLRYE_KAFKA_SASL_JAAS_CONFIG").value())
        .contains("username=\"consumer-service\"")
        .contains("password=\"${KAFKA_PASSWORD}\"");
    assertThat(env.get("KAFKA_PASSWORD").from()).isEqualTo(ContainerEnv.From.SECRET);

    String truststore =
        env.get("MP_MESSAGING_CONNECTOR_SMALLRYE_KAFKA_SSL_TRUSTSTORE_LOCATION").value();
    String caSecret = Rendered.name(kafka) + "-cluster-ca-cert";
    List<String> mounted = new ArrayList<>();
    for (JsonNode mount : container.path("volumeMounts")) {
      for (JsonNode volume : Rendered.podSpec(consumer).path("volumes")) {
        if (volume.path("name").equals(mount.path("name"))
            && volume.path("secret").path("secretName").asText().equals(caSecret)) {
          for (JsonNode item : volume.path("secret").path("items")) {
            mounted.add(mount.path("mountPath").asText() + "/" + item.path("path").asText());
          }
        }
      }
    }
    assertThat(mounted).as("the CA file comes from " + caSecret).contains(truststore);
    assertThat(new EgressPolicy(prod).unreachable(consumer)).isEmpty();
  }

  private static List<String> allowed(JsonNode user, String type, String name) {
    List<String> operations = new ArrayList<>();
    for (JsonNode acl : user.path("spec").path("authorization").path("acls")) {
      JsonNode resource = acl.path("resource");
      String pattern = resource.path("name").asText();
      boolean matches =
          resource.path("patternType").asText("literal").equals("prefix")
              ? name.startsWith(pattern)
              : name.equals(pattern);
      if (resource.path("type").asText().equals(type) && matches) {
        acl.path("operations").forEach(o -> operations.add(o.asText()));
      }
    }
    return operations;
  }

  /** consumer-service's Kafka channels, from its application.properties. */
  private record Channels(Set<String> read, Set<String> deadLetters, Set<String> groups) {

    static Channels ofConsumerService() throws IOException {
      Properties properties = new Properties();
      properties.load(
          new StringReader(
              Repo.read("consumer-service/src/main/resources/application.properties")));
      Set<String> read = new TreeSet<>();
      Set<String> deadLetters = new TreeSet<>();
      Set<String> channels = new TreeSet<>();
      for (String key : properties.stringPropertyNames()) {
        if (!key.startsWith("mp.messaging.incoming.")) {
          continue;
        }
        String rest = key.substring("mp.messaging.incoming.".length());
        String channel = rest.substring(0, rest.indexOf('.'));
        String attribute = rest.substring(channel.length() + 1);
        String value = properties.getProperty(key);
        switch (attribute) {
          case "topic", "topics" -> {
            channels.add(channel);
            for (String topic : value.split(",")) {
              read.add(topic.trim());
            }
          }
          case "dead-letter-queue.topic" -> deadLetters.add(value);
          default -> {}
        }
      }
      assertThat(read).as("consumer-service reads Kafka topics").isNotEmpty();
      assertThat(deadLetters).as("a dead-letter topic per channel").hasSameSizeAs(channels);
      Set<String> groups = new TreeSet<>();
      channels.forEach(c -> groups.add("consumer-service." + c));
      return new Channels(read, deadLetters, groups);
    }
  }
}
