package dev.onceonly.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/run-tests.sh, the README's test command, decides on a machine it finds: it installs the
 * tools the tests call when they are missing, and stops with an error naming a tool it cannot have,
 * before Maven starts. Each test runs a copy of the script in a sandbox whose PATH holds only the
 * basic commands it needs and stand-ins for java, kubectl, docker, id, apt-get and the tools; the
 * stand-in for apt-get "installs" a package by putting its tool on that PATH, and the stand-in for
 * ./mvnw records that it ran.
 */
class RunTestsScriptTest {

  private static final Path SCRIPT = Path.of("../run-tests.sh");

  /** Real commands the script and the stand-ins use, linked into the sandbox's PATH. */
  private static final List<String> BASICS =
      List.of(
          "bash", "env", "dirname", "sed", "head", "tail", "seq", "sleep", "mktemp", "rm", "ls",
          "cat", "touch", "grep", "chmod");

  @TempDir Path sandbox;
  private Path bin;
  private Path repo;

  @BeforeEach
  void machineWithEverything() throws IOException {
    assertThat(SCRIPT).as("run from deploy/test-support, beside the script").isRegularFile();
    bin = Files.createDirectories(sandbox.resolve("bin"));
    repo = Files.createDirectories(sandbox.resolve("repo/deploy"));
    Files.copy(SCRIPT, repo.resolve("run-tests.sh"));
    repo = repo.getParent();
    for (String command : BASICS) {
      Files.createSymbolicLink(bin.resolve(command), which(command));
    }
    executable(
        repo.resolve("mvnw"),
        "echo \"$*\" > " + sandbox.resolve("maven-ran"),
        "echo \"CHROMIUM=$CHROMIUM CHROMEDRIVER=$CHROMEDRIVER\" >> " + sandbox.resolve("maven-ran"),
        "exit ${MAVEN_EXIT:-0}");
    java(17);
    executable(bin.resolve("javac"), "exit 0");
    kubectl("v1.32.4");
    executable(bin.resolve("docker"), "[ \"$1\" = info ]"); // an engine: no local services needed
    user(0);
    for (String tool : List.of("promtool", "chromium", "chromedriver")) {
      executable(bin.resolve(tool), "exit 0");
    }
    apt("ok");
  }

  @Test
  void buildsWithMavenVerifyWhenEverythingIsThere() throws Exception {
    Run run = run();

    assertThat(run.exit).as(run.output).isZero();
    assertThat(mavenRan()).startsWith("-B verify\n");
    assertThat(mavenRan()).contains("CHROMIUM=" + bin.resolve("chromium"));
    assertThat(aptCalls()).isEmpty();
  }

  @Test
  void installsTheMissingToolsFromDebianThenBuilds() throws Exception {
    Files.delete(bin.resolve("promtool"));
    Files.delete(bin.resolve("chromedriver"));

    Run run = run();

    assertThat(run.exit).as(run.output).isZero();
    assertThat(aptCalls())
        .containsExactly("install -y -q --no-install-recommends prometheus chromium-driver");
    assertThat(bin.resolve("promtool")).exists();
    assertThat(mavenRan()).contains("CHROMEDRIVER=" + bin.resolve("chromedriver"));
  }

  @Test
  void updatesThePackageListsWhenAnInstallFailsAndTriesOnceMore() throws Exception {
    Files.delete(bin.resolve("chromium"));
    apt("fail-until-update");

    Run run = run();

    assertThat(run.exit).as(run.output).isZero();
    assertThat(aptCalls())
        .containsExactly(
            "install -y -q --no-install-recommends chromium",
            "update -q",
            "install -y -q --no-install-recommends chromium");
    assertThat(mavenRan()).startsWith("-B verify");
  }

  @Test
  void namesTheToolAndStopsBeforeMavenWhenTheInstallFails() throws Exception {
    Files.delete(bin.resolve("promtool"));
    apt("fail");

    Run run = run();

    assertThat(run.exit).isNotZero();
    assertThat(run.output)
        .contains("missing: promtool (Debian packages: prometheus)")
        .contains("apt-get could not install them")
        .contains("E: Unable to locate package prometheus");
    assertThat(aptCalls()).hasSize(3);
    assertThat(sandbox.resolve("maven-ran")).doesNotExist();
  }

  @Test
  void namesTheToolsWhenItIsNotRootAndHasNoSudo() throws Exception {
    Files.delete(bin.resolve("chromium"));
    Files.delete(bin.resolve("chromedriver"));
    user(1000);

    Run run = run();

    assertThat(run.exit).isNotZero();
    assertThat(run.output)
        .contains("missing: chromium chromedriver (Debian packages: chromium chromium-driver)")
        .contains("not root, and no password-less sudo");
    assertThat(aptCalls()).isEmpty();
    assertThat(sandbox.resolve("maven-ran")).doesNotExist();
  }

  @Test
  void namesTheToolWhenThereIsNoAptGet() throws Exception {
    Files.delete(bin.resolve("promtool"));
    Files.delete(bin.resolve("apt-get"));

    Run run = run();

    assertThat(run.exit).isNotZero();
    assertThat(run.output).contains("missing: promtool").contains("no apt-get on this machine");
    assertThat(sandbox.resolve("maven-ran")).doesNotExist();
  }

  @Test
  void stopsBeforeMavenWithoutKubectlOrWithAnOldOne() throws Exception {
    kubectl("v1.26.3");
    Run old = run();
    assertThat(old.exit).isNotZero();
    assertThat(old.output).contains("kubectl is version 1.26").contains("1.27 or later");

    Files.delete(bin.resolve("kubectl"));
    Run none = run();
    assertThat(none.exit).isNotZero();
    assertThat(none.output).contains("kubectl is not installed");

    assertThat(sandbox.resolve("maven-ran")).doesNotExist();
    assertThat(aptCalls()).isEmpty();
  }

  @Test
  void stopsBeforeMavenOnAJavaOlderThan17() throws Exception {
    java(11);

    Run run = run();

    assertThat(run.exit).isNotZero();
    assertThat(run.output).contains("java is version 11").contains("JDK 17 or later");
    assertThat(sandbox.resolve("maven-ran")).doesNotExist();
  }

  @Test
  void passesItsArgumentsToMavenAndReturnsItsExitCode() throws Exception {
    Run run = run(Map.of("MAVEN_EXIT", "3"), "-pl", "outbox-relay", "-am");

    assertThat(run.exit).isEqualTo(3);
    assertThat(mavenRan()).startsWith("-B verify -pl outbox-relay -am\n");
  }

  private void java(int major) throws IOException {
    executable(bin.resolve("java"), "echo 'openjdk version \"" + major + ".0.15\" 2025-04-15' >&2");
  }

  private void kubectl(String version) throws IOException {
    executable(bin.resolve("kubectl"), "echo 'Client Version: " + version + "'");
  }

  private void user(int uid) throws IOException {
    executable(bin.resolve("id"), "echo " + uid);
  }

  /**
   * apt-get that records its arguments; {@code ok} installs, {@code fail} never does, {@code
   * fail-until-update} installs once an update ran. Installing puts each package's tool on PATH.
   */
  private void apt(String behaviour) throws IOException {
    Path calls = sandbox.resolve("apt-calls");
    Path updated = sandbox.resolve("apt-updated");
    executable(
        bin.resolve("apt-get"),
        "echo \"$*\" >> " + calls,
        "if [ \"$1\" = update ]; then touch " + updated + "; exit 0; fi",
        "case " + behaviour + " in",
        "  fail) echo \"E: Unable to locate package ${@: -1}\"; exit 100 ;;",
        "  fail-until-update) [ -e " + updated + " ] || exit 100 ;;",
        "esac",
        "for p in \"$@\"; do case $p in",
        "  prometheus) t=promtool ;; chromium) t=chromium ;; chromium-driver) t=chromedriver ;;",
        "  *) continue ;;",
        "esac; printf '#!/bin/bash\\nexit 0\\n' > " + bin + "/$t; chmod +x " + bin + "/$t; done");
  }

  private List<String> aptCalls() throws IOException {
    Path calls = sandbox.resolve("apt-calls");
    return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
  }

  private String mavenRan() throws IOException {
    return Files.readString(sandbox.resolve("maven-ran"));
  }

  private Run run(String... arguments) throws Exception {
    return run(Map.of(), arguments);
  }

  private Run run(Map<String, String> environment, String... arguments) throws Exception {
    List<String> command =
        new java.util.ArrayList<>(
            List.of(which("bash").toString(), repo.resolve("deploy/run-tests.sh").toString()));
    command.addAll(List.of(arguments));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().put("PATH", bin.toString());
    builder.environment().put("HOME", sandbox.toString());
    builder.environment().putAll(environment);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
    return new Run(process.exitValue(), output);
  }

  private record Run(int exit, String output) {}

  private static void executable(Path file, String... lines) throws IOException {
    Files.writeString(file, "#!" + which("bash") + "\n" + String.join("\n", lines) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Where {@code command} is on this machine's PATH. */
  private static Path which(String command) {
    for (String dir : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(dir, command);
      if (Files.isExecutable(candidate)) {
        return candidate.toAbsolutePath();
      }
    }
    throw new IllegalStateException(command + " is not on PATH");
  }
}
