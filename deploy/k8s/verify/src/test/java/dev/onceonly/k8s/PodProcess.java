package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One container of a rendered pod, run here as a process: its command, its environment only (no
 * variable of the test's own), its output in a log file. Stopped the way the kubelet stops a pod.
 */
final class PodProcess {

  /** How a stop ended: by itself within the grace period, or killed at its end. */
  record Stop(boolean exitedByItself, Duration took, int exitCode) {}

  final String pod;
  final JsonNode container;
  final Map<Integer, Integer> ports;
  final Path log;
  private final Process process;

  private PodProcess(
      String pod, JsonNode container, Map<Integer, Integer> ports, Path log, Process process) {
    this.pod = pod;
    this.container = container;
    this.ports = ports;
    this.log = log;
    this.process = process;
  }

  static PodProcess start(
      String pod,
      JsonNode container,
      List<String> command,
      Map<String, String> env,
      Map<Integer, Integer> ports,
      Path logs) {
    try {
      Files.createDirectories(logs);
      Path log = logs.resolve(pod + ".log");
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().clear();
      builder.environment().putAll(env);
      return new PodProcess(pod, container, ports, log, builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + pod, e);
    }
  }

  /** The local port standing for one of the container's named ports. */
  int port(String name) {
    int containerPort = ContainerEnv.containerPort(container, name);
    Integer local = ports.get(containerPort);
    if (local == null) {
      throw new AssertionError(pod + ": container port " + containerPort + " is not mapped");
    }
    return local;
  }

  /** The local URL of a probe of the manifest: its path, on the port it names. */
  String probeUrl(String probe) {
    JsonNode spec = container.path(probe);
    if (!spec.has("httpGet")) {
      throw new AssertionError(pod + " has no HTTP " + probe);
    }
    int containerPort = ContainerEnv.probePort(container, spec);
    return "http://127.0.0.1:"
        + ports.get(containerPort)
        + spec.path("httpGet").path("path").asText();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** Waits for the process to end by itself (a Job's container). */
  int awaitExit(Duration limit) throws InterruptedException {
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(pod + " did not finish within " + limit + "\n" + tail());
    }
    return process.exitValue();
  }

  /**
   * Stops it as Kubernetes does: the preStop exec command of the manifest runs, then SIGTERM, then
   * SIGKILL once the grace period (counted from the start, preStop included) is over.
   */
  Stop stopLikeKubernetes(long graceSeconds) throws IOException, InterruptedException {
    Instant start = Instant.now();
    Instant end = start.plusSeconds(graceSeconds);
    JsonNode preStop = container.path("lifecycle").path("preStop").path("exec").path("command");
    if (!preStop.isMissingNode()) {
      List<String> command = new ArrayList<>();
      preStop.forEach(part -> command.add(part.asText()));
      Process hook = new ProcessBuilder(command).inheritIO().start();
      if (!hook.waitFor(graceSeconds, TimeUnit.SECONDS)) {
        hook.destroyForcibly();
      }
    }
    process.destroy(); // SIGTERM
    long left = Math.max(0, Duration.between(Instant.now(), end).toMillis());
    boolean exited = process.waitFor(left, TimeUnit.MILLISECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor(); // SIGKILL
    }
    return new Stop(exited, Duration.between(start, Instant.now()), process.exitValue());
  }

  /** Ends it at once (clean-up after a failure). */
  void kill() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }

  String output() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** The last lines of its log, for failure messages. */
  String tail() {
    List<String> lines = output().lines().toList();
    return pod
        + " log (last 40 lines of "
        + log
        + "):\n"
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }
}
