package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The prod overlay applied again after an operator changed it (deploy/k8s/README.md "Migrations"):
 * every second render applies over the first (no immutable field of a same-named object changes), a
 * changed setting or image gets a migrations Job of its own that runs again, and an unchanged
 * render leaves the Job as it is.
 */
class MigrationsJobReapplyTest {

  private static final String PROD = "deploy/k8s/overlays/prod";

  @Test
  void aChangedSettingGivesANewJobAndTheRenderStillApplies() {
    ManifestCopy copy = ManifestCopy.of("changed-setting");
    Rendered before = copy.render(PROD);
    copy.edit(
        "deploy/k8s/overlays/prod/onceonly.env",
        "postgres.example.internal:5432",
        "postgres-2.example.internal:5432");
    Rendered after = copy.render(PROD);

    assertThat(ImmutableFields.conflicts(before.objects, after.objects)).isEmpty();
    JsonNode job = job(after);
    assertThat(Rendered.name(job)).isNotEqualTo(Rendered.name(job(before)));
    assertThat(ContainerEnv.of(after, ContainerEnv.onlyContainer(job)).get("DB_URL").value())
        .as("the new Job migrates the database the services are now told of")
        .contains("postgres-2.example.internal");
  }

  @Test
  void aNewReleaseOrADigestGivesANewJobThatRunsTheNewImage() {
    ManifestCopy copy = ManifestCopy.of("new-release");
    Rendered before = copy.render(PROD);
    copy.edit("deploy/k8s/base/kustomization.yaml", "newTag: " + Repo.version(), "newTag: 9.9.9");
    Rendered release = copy.render(PROD);
    assertThat(ImmutableFields.conflicts(before.objects, release.objects)).isEmpty();
    assertThat(Rendered.name(job(release))).isNotEqualTo(Rendered.name(job(before)));
    assertThat(ContainerEnv.onlyContainer(job(release)).path("image").asText())
        .endsWith("/consumer-service:9.9.9");

    String digest = "sha256:" + "ab".repeat(32);
    copy.edit(
        "deploy/k8s/overlays/prod/kustomization.yaml",
        "    newName: registry.example.com/onceonly/consumer-service\n",
        "    newName: registry.example.com/onceonly/consumer-service\n    digest: "
            + digest
            + "\n");
    Rendered pinned = copy.render(PROD);
    assertThat(ImmutableFields.conflicts(release.objects, pinned.objects)).isEmpty();
    assertThat(Rendered.name(job(pinned))).isNotEqualTo(Rendered.name(job(release)));
    assertThat(ContainerEnv.onlyContainer(job(pinned)).path("image").asText())
        .startsWith("registry.example.com/onceonly/consumer-service")
        .endsWith("@" + digest);
  }

  @Test
  void anUnchangedRenderKeepsTheJobAndTracingLeavesItAlone() {
    ManifestCopy copy = ManifestCopy.of("unchanged");
    Rendered first = copy.render(PROD);
    Rendered again = copy.render(PROD);
    assertThat(Rendered.name(job(again))).isEqualTo(Rendered.name(job(first)));
    assertThat(job(again)).isEqualTo(job(first));

    Rendered traced = copy.renderWith("prod", "tracing");
    assertThat(ImmutableFields.conflicts(first.objects, traced.objects)).isEmpty();
    assertThat(job(traced))
        .as("switching tracing on does not run the migrations again")
        .isEqualTo(job(first));
  }

  @Test
  void aJobWhoseTemplateChangesUnderTheSameNameIsRefused() throws IOException {
    JsonNode before =
        Rendered.YAML.readTree(
            """
            kind: Job
            metadata: {name: onceonly-migrate-0-1-0, namespace: onceonly}
            spec:
              template:
                spec:
                  containers: [{name: migrate, envFrom: [{configMapRef: {name: cfg-abc}}]}]
            """);
    JsonNode after = Rendered.YAML.readTree(before.toString().replace("cfg-abc", "cfg-def"));
    assertThat(ImmutableFields.conflicts(List.of(before), List.of(after)))
        .containsExactly(
            "Job onceonly-migrate-0-1-0: /spec/template is immutable and would change");
  }

  @Test
  void finishedJobsAreCleanedUpByTheirTtlOrUnderGitOpsByPruning() {
    Rendered prod = Rendered.overlay("prod");
    assertThat(job(prod).path("spec").path("ttlSecondsAfterFinished").asInt()).isPositive();
    ManifestCopy copy = ManifestCopy.of("gitops");
    JsonNode gitops = job(copy.renderWith("prod", "gitops"));
    assertThat(gitops.path("spec").has("ttlSecondsAfterFinished")).isFalse();
    assertThat(Rendered.name(gitops)).isEqualTo(Rendered.name(job(prod)));
    ((ObjectNode) gitops.path("spec"))
        .set("ttlSecondsAfterFinished", job(prod).path("spec").path("ttlSecondsAfterFinished"));
    assertThat(gitops).as("nothing else differs").isEqualTo(job(prod));
  }

  private static JsonNode job(Rendered rendered) {
    List<JsonNode> jobs = rendered.all("Job");
    assertThat(jobs).as(rendered.overlay).hasSize(1);
    return jobs.get(0);
  }
}
