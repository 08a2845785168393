package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The deploy instructions name this build: an image tag or "the project version" written into
 * README.md or deploy/k8s/README.md must be the version in pom.xml, so a release cannot leave
 * commands that load last release's images; and they name no migrations Job by its hashed name,
 * which changes with every setting (they find it by its label).
 */
class ReadmeVersionTest {

  static final List<String> READMES = List.of("README.md", "deploy/k8s/README.md");

  /** {@code onceonly/<image>:<tag>}, the image name also as a shell expression. */
  private static final Pattern IMAGE_TAG =
      Pattern.compile(
          "onceonly/(?:\\$\\([^)\\n]*\\)|\\$\\{?\\w+}?|[a-z0-9-]+):(\\d+(?:\\.\\d+)+(?:-[\\w.]+)?|latest)\\b");

  /** The migrations Job by name ({@code onceonly-migrate-<hash>} as a placeholder is fine). */
  private static final Pattern JOB = Pattern.compile("onceonly-migrate-([a-z0-9]+(?:-[a-z0-9]+)*)");

  /** "the project version, `0.1.0-SNAPSHOT` now" and the like. */
  private static final Pattern PROJECT_VERSION =
      Pattern.compile("project version\\)?,?\\s*(?:is\\s*)?`([^`]+)`");

  /** A snapshot version is only ever this project's own. */
  private static final Pattern SNAPSHOT = Pattern.compile("\\b\\d+(?:\\.\\d+)+-SNAPSHOT\\b");

  @Test
  void theReadmesNameThisBuildsVersionAndNoMigrationsJobByName() {
    for (String readme : READMES) {
      assertThat(stale(Repo.read(readme), Repo.version()))
          .as(readme + " names another version than pom.xml's " + Repo.version() + " or a Job")
          .isEmpty();
    }
  }

  @Test
  void anotherVersionIsFoundWhereverTheInstructionsNameOne() {
    String text =
        """
        1. **Build the images** (tag = the project version, `0.0.9` now; never `latest`):
           docker build -t $REGISTRY/onceonly/$m:$VERSION .
           (cd $m && docker build -t onceonly/$(basename $m):0.0.9-SNAPSHOT .)
           kind load docker-image onceonly/consumer-service:0.0.9 onceonly/outbox-relay:latest
           kubectl wait --for=condition=complete job/onceonly-migrate-0-0-9-snapshot --timeout=10m
        The Job `onceonly-migrate-<hash>` runs once; label app.kubernetes.io/name: onceonly-migrations.
        Quarkus 3.33.2, fabric8 7.5.2, PostgreSQL at 127.0.0.1:5432.
        """;
    assertThat(stale(text, "0.1.0-SNAPSHOT"))
        .containsExactly(
            "image tag 0.0.9-SNAPSHOT",
            "image tag 0.0.9",
            "image tag latest",
            "Job onceonly-migrate-0-0-9-snapshot",
            "project version 0.0.9",
            "version 0.0.9-SNAPSHOT");
    String current =
        text.replace("0.0.9-SNAPSHOT", "0.1.0-SNAPSHOT")
            .replace(
                "job/onceonly-migrate-0-0-9-snapshot",
                "job -l app.kubernetes.io/component=migrations")
            .replace("0.0.9", "0.1.0-SNAPSHOT")
            .replace("outbox-relay:latest", "outbox-relay:0.1.0-SNAPSHOT");
    assertThat(stale(current, "0.1.0-SNAPSHOT")).isEmpty();
  }

  /** What {@code text} names that is not {@code version}, and every Job named outright. */
  static List<String> stale(String text, String version) {
    List<String> stale = new ArrayList<>();
    Matcher image = IMAGE_TAG.matcher(text);
    while (image.find()) {
      if (!image.group(1).equals(version)) {
        stale.add("image tag " + image.group(1));
      }
    }
    Matcher named = JOB.matcher(text);
    while (named.find()) {
      stale.add("Job " + named.group());
    }
    Matcher project = PROJECT_VERSION.matcher(text);
    while (project.find()) {
      if (!project.group(1).equals(version)) {
        stale.add("project version " + project.group(1));
      }
    }
    Matcher snapshot = SNAPSHOT.matcher(text);
    while (snapshot.find()) {
      if (!snapshot.group().equals(version)) {
        stale.add("version " + snapshot.group());
      }
    }
    return stale;
  }
}
