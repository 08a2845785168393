package dev.onceonly.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One service instance run from its jar as a process of this JVM, logging (appending, across
 * restarts) to a file: started, killed with SIGKILL or stopped with SIGTERM, and started again with
 * the same environment, as a supervisor would.
 */
final class ServiceProcess {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Path jar;
  private final List<String> javaOptions;
  private final Map<String, String> env;
  private final String healthUrl;
  private final Path log;
  private Process process;
  private java.time.Instant startedAt = java.time.Instant.EPOCH;

  ServiceProcess(
      String name,
      Path jar,
      List<String> javaOptions,
      Map<String, String> env,
      String healthUrl,
      Path log) {
    this.name = name;
    this.jar = jar;
    this.javaOptions = javaOptions;
    this.env = env;
    this.healthUrl = healthUrl;
    this.log = log;
  }

  synchronized void start() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " is already running");
    }
    List<String> command = new ArrayList<>(List.of("java"));
    command.addAll(javaOptions);
    command.addAll(List.of("-jar", jar.toString()));
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    pb.environment().putAll(env);
    startedAt = java.time.Instant.now();
    process = pb.start();
  }

  /** The process's pid, if it runs. */
  synchronized List<Long> pids() {
    return process != null && process.isAlive() ? List.of(process.pid()) : List.of();
  }

  /** Waits for {@code /q/health/ready} to answer 200; fails if the process ends meanwhile. */
  void awaitReady(Duration within) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      if (ready()) {
        return;
      }
      if (!alive()) {
        throw new IOException(name + " exited with " + process.exitValue() + "; see " + log);
      }
      Thread.sleep(200);
    }
    throw new IOException(name + " not ready within " + within.toSeconds() + " s; see " + log);
  }

  boolean ready() throws InterruptedException {
    try {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(healthUrl + "/q/health/ready"))
              .timeout(Duration.ofSeconds(3))
              .build();
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    }
  }

  synchronized boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL: no shutdown hook runs, nothing in flight is finished or released. */
  synchronized void kill9() throws InterruptedException {
    if (alive()) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * SIGSTOP: the process holds its connections and state but gets no CPU until {@link #resume()}
   * (SIGCONT).
   */
  synchronized void pause() throws IOException, InterruptedException {
    signal("STOP");
  }

  synchronized void resume() throws IOException, InterruptedException {
    signal("CONT");
  }

  private void signal(String name) throws IOException, InterruptedException {
    if (alive()) {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IOException(
            "kill -" + name + " " + process.pid() + " failed (" + this.name + ")");
      }
    }
  }

  /** SIGTERM, then waits for the process to end (SIGKILL after {@code grace}); its exit code. */
  synchronized int terminate(Duration grace) throws InterruptedException {
    if (!alive()) {
      return process == null ? 0 : process.exitValue();
    }
    process.destroy();
    if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
    return process.exitValue();
  }

  /** Log lines written since the file had {@code fromBytes} bytes that contain {@code text}. */
  long logLinesContaining(long fromBytes, String text) throws IOException {
    if (!Files.exists(log)) {
      return 0;
    }
    byte[] all = Files.readAllBytes(log);
    String since =
        new String(
            all, (int) Math.min(fromBytes, all.length), (int) Math.max(0, all.length - fromBytes));
    return since.lines().filter(l -> l.toLowerCase().contains(text.toLowerCase())).count();
  }

  long logSize() throws IOException {
    return Files.exists(log) ? Files.size(log) : 0;
  }

  String name() {
    return name;
  }

  synchronized java.time.Instant startedAt() {
    return startedAt;
  }
}
