package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The TLS shape of the prod overlay (docs/tls.md, components/tls): both services and the migrations
 * Job reach PostgreSQL with {@code sslmode=verify-full} and an {@code sslrootcert} that is a file
 * of the mounted Secret onceonly-db-ca; consumer-service speaks AMQPS on 5671 trusting a file of
 * the mounted Secret onceonly-broker-ca, which the relay has too for its RabbitMQ destinations; the
 * consumer's policy opens 5671 and no longer 5672. The dev overlay stays plain.
 */
class TlsShapeTest {

  private static final String DB_CA = "onceonly-db-ca";
  private static final String BROKER_CA = "onceonly-broker-ca";

  @Test
  void prodReachesTheDatabaseWithVerifyFullAndTheMountedCa() {
    Rendered prod = Rendered.overlay("prod");
    List<String> problems = databaseProblems(prod);
    assertThat(problems).isEmpty();
    assertThat(prod.workloads()).hasSize(3);
  }

  @Test
  void prodConsumerSpeaksAmqpsTrustingTheMountedCa() {
    Rendered prod = Rendered.overlay("prod");
    JsonNode consumer = prod.one("Deployment", "consumer-service");
    Map<String, ContainerEnv.Variable> env =
        ContainerEnv.of(prod, ContainerEnv.onlyContainer(consumer));
    assertThat(env.get("RABBITMQ_TLS").value()).isEqualTo("true");
    assertThat(env.get("RABBITMQ_PORT").value()).isEqualTo("5671");
    assertThat(secretOfFile(consumer, env.get("RABBITMQ_CA_FILE").value())).contains(BROKER_CA);
    assertThat(
            secretOfFile(
                prod.one("Deployment", "outbox-relay"), env.get("RABBITMQ_CA_FILE").value()))
        .as("the relay's RabbitMQ destinations trust the same CA file")
        .contains(BROKER_CA);

    List<Integer> ports =
        prod
            .one("NetworkPolicy", "consumer-service")
            .path("spec")
            .path("egress")
            .findValues("port")
            .stream()
            .map(JsonNode::asInt)
            .toList();
    assertThat(ports).contains(5671).doesNotContain(5672);
  }

  @Test
  void aCaPathOutsideTheMountedSecretIsFound() {
    ManifestCopy copy = ManifestCopy.of("tls-ca-path");
    copy.edit(
        "deploy/k8s/overlays/prod/onceonly.env",
        "sslrootcert=/etc/onceonly/db-ca/ca.crt",
        "sslrootcert=/etc/ssl/certs/ca.crt");
    assertThat(databaseProblems(copy.render("deploy/k8s/overlays/prod")))
        .hasSize(3)
        .allMatch(
            p -> p.contains("sslrootcert /etc/ssl/certs/ca.crt is no file of Secret " + DB_CA));

    copy.edit("deploy/k8s/overlays/prod/onceonly.env", "sslmode=verify-full", "sslmode=require");
    assertThat(databaseProblems(copy.render("deploy/k8s/overlays/prod")))
        .anyMatch(p -> p.contains("sslmode=verify-full"));
  }

  @Test
  void devStaysPlain() {
    Rendered dev = Rendered.overlay("dev");
    JsonNode consumer = dev.one("Deployment", "consumer-service");
    Map<String, ContainerEnv.Variable> env =
        ContainerEnv.of(dev, ContainerEnv.onlyContainer(consumer));
    assertThat(env.get("RABBITMQ_PORT").value()).isEqualTo("5672");
    assertThat(env).doesNotContainKey("RABBITMQ_TLS");
    assertThat(env.get("DB_URL").value()).doesNotContain("sslmode");
  }

  /** Every workload whose DB_URL is not verify-full with a CA file of the mounted Secret. */
  private static List<String> databaseProblems(Rendered rendered) {
    List<String> problems = new ArrayList<>();
    for (JsonNode workload : rendered.workloads()) {
      String url =
          ContainerEnv.of(rendered, ContainerEnv.onlyContainer(workload)).get("DB_URL").value();
      String where = Rendered.describe(workload) + ": ";
      if (!url.contains("sslmode=verify-full")) {
        problems.add(where + "DB_URL must have sslmode=verify-full: " + url);
      }
      String root = parameter(url, "sslrootcert");
      if (root == null || !secretOfFile(workload, root).equals(Optional.of(DB_CA))) {
        problems.add(where + "sslrootcert " + root + " is no file of Secret " + DB_CA);
      }
    }
    return problems;
  }

  private static String parameter(String url, String name) {
    int query = url.indexOf('?');
    if (query < 0) {
      return null;
    }
    for (String pair : url.substring(query + 1).split("&")) {
      if (pair.startsWith(name + "=")) {
        return pair.substring(name.length() + 1);
      }
    }
    return null;
  }

  /** The Secret whose key is mounted (read-only) at {@code path} in the workload's container. */
  private static Optional<String> secretOfFile(JsonNode workload, String path) {
    JsonNode container = ContainerEnv.onlyContainer(workload);
    for (JsonNode mount : container.path("volumeMounts")) {
      String dir = mount.path("mountPath").asText();
      if (!path.startsWith(dir + "/") || !mount.path("readOnly").asBoolean()) {
        continue;
      }
      for (JsonNode volume : Rendered.podSpec(workload).path("volumes")) {
        JsonNode secret = volume.path("secret");
        if (!volume.path("name").asText().equals(mount.path("name").asText())
            || secret.isMissingNode()) {
          continue;
        }
        for (JsonNode item : secret.path("items")) {
          if ((dir + "/" + item.path("path").asText()).equals(path)) {
            return Optional.of(secret.path("secretName").asText());
          }
        }
      }
    }
    return Optional.empty();
  }
}
