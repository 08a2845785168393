package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The images' essentials, read from the Dockerfiles (nothing builds images here): the pinned UBI
 * OpenJDK 17 runtime, the fast-jar layers where run-java.sh expects them, a numeric non-root user.
 */
class DockerfileTest {

  static final List<String> MODULES =
      List.of("consumer-service", "outbox-relay", "deploy/provider-sandbox");

  @Test
  void everyImageRunsTheFastJarOnAPinnedJre17AsANonRootUser() {
    for (String module : MODULES) {
      String dockerfile = Repo.read(module + "/src/main/docker/Dockerfile.jvm");
      List<String> from = lines(dockerfile, "FROM");
      assertThat(from).as(module).hasSize(1);
      Matcher base =
          Pattern.compile("registry\\.access\\.redhat\\.com/ubi9/openjdk-17-runtime:(\\S+)")
              .matcher(from.get(0));
      assertThat(base.find()).as(module + ": UBI 9 OpenJDK 17 runtime").isTrue();
      assertThat(base.group(1)).as(module + ": a pinned tag").matches("\\d+\\.\\d+.*");

      List<String> users = lines(dockerfile, "USER");
      assertThat(users).as(module + ": one USER, last").isNotEmpty();
      String user = users.get(users.size() - 1);
      assertThat(user).as(module).matches("\\d+");
      assertThat(Integer.parseInt(user)).as(module + ": not root").isPositive();

      for (String layer : List.of("lib/", "*.jar", "app/", "quarkus/")) {
        assertThat(dockerfile)
            .as(module + " copies quarkus-app/" + layer)
            .containsPattern(
                "COPY --chown="
                    + user
                    + " target/quarkus-app/"
                    + Pattern.quote(layer)
                    + " /deployments/");
      }
      assertThat(dockerfile).contains("ENV JAVA_APP_JAR=\"/deployments/quarkus-run.jar\"");
      assertThat(dockerfile)
          .contains("ENTRYPOINT [ \"/opt/jboss/container/java/run/run-java.sh\" ]");
      assertThat(Repo.read(module + "/.dockerignore")).contains("!target/quarkus-app/*");
    }
  }

  @Test
  void theManifestsRunAsTheImagesUser() {
    String user =
        lines(Repo.read("consumer-service/src/main/docker/Dockerfile.jvm"), "USER").get(0);
    for (String overlay : List.of("dev", "prod")) {
      for (var workload : Rendered.overlay(overlay).workloads()) {
        String image = ContainerEnv.onlyContainer(workload).path("image").asText();
        if (image.contains("onceonly/")) {
          assertThat(Rendered.podSpec(workload).path("securityContext").path("runAsUser").asText())
              .as(overlay + " " + Rendered.describe(workload))
              .isEqualTo(user);
        }
      }
    }
  }

  private static List<String> lines(String dockerfile, String instruction) {
    return dockerfile
        .lines()
        .filter(l -> l.startsWith(instruction + " "))
        .map(l -> l.substring(instruction.length() + 1).strip())
        .toList();
  }
}
