package dev.onceonly.it.shipping;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A packaged Quarkus service run as a process of its own: its jar, its environment, its log under
 * {@code target/processes}, its HTTP and management ports chosen free below the ephemeral range.
 */
final class ServiceProcess implements AutoCloseable {

  final String name;
  final int http;
  final int management;
  final Path log;
  private final Process process;

  private ServiceProcess(String name, int http, int management, Path log, Process process) {
    this.name = name;
    this.http = http;
    this.management = management;
    this.log = log;
    this.process = process;
  }

  /** Starts {@code jar} with {@code env} and {@code HTTP_PORT}, {@code MANAGEMENT_PORT} set. */
  static ServiceProcess start(String name, String jar, Map<String, String> env) throws IOException {
    int http = freePort();
    int management = freePort();
    Path log = Files.createDirectories(Path.of("target", "processes")).resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-jar",
                jar)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().putAll(env);
    builder.environment().put("HTTP_PORT", Integer.toString(http));
    builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(http));
    builder.environment().put("MANAGEMENT_PORT", Integer.toString(management));
    return new ServiceProcess(name, http, management, log, builder.start());
  }

  /** Waits until the service says it is ready on {@code port}'s {@code /q/health/ready}. */
  ServiceProcess awaitReady(int port) {
    await()
        .atMost(Duration.ofSeconds(120))
        .until(
            () -> {
              if (!process.isAlive()) {
                throw new IllegalStateException(name + " ended; see " + log.toAbsolutePath());
              }
              return status(port, "/q/health/ready") == 200;
            });
    return this;
  }

  ServiceProcess awaitReady() {
    return awaitReady(management);
  }

  Process process() {
    return process;
  }

  /** The value of the counter {@code onceonly_consumer_messages_total} of one consumer/outcome. */
  double outcomes(String consumer, String outcome) throws IOException {
    for (String line : get(management, "/q/metrics").split("\n")) {
      if (line.startsWith("onceonly_consumer_messages_total{")
          && line.contains("consumer=\"" + consumer + "\"")
          && line.contains("outcome=\"" + outcome + "\"")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  /** SIGTERM, then SIGKILL if it has not ended within 30 s. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  static int status(int port, String path) {
    try {
      HttpURLConnection c = open(port, path);
      return c.getResponseCode();
    } catch (IOException e) {
      return -1;
    }
  }

  /** The body of a GET that must answer 2xx. */
  static String get(int port, String path) throws IOException {
    HttpURLConnection c = open(port, path);
    int status = c.getResponseCode();
    if (status >= 300) {
      throw new IOException("GET " + path + " on " + port + " answered " + status);
    }
    return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  /** POSTs a JSON body; the status. */
  static int post(int port, String path, String json) throws IOException {
    HttpURLConnection c = open(port, path);
    c.setRequestMethod("POST");
    c.setDoOutput(true);
    c.setRequestProperty("Content-Type", "application/json");
    c.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
    return c.getResponseCode();
  }

  private static HttpURLConnection open(int port, String path) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
    c.setConnectTimeout(2_000);
    c.setReadTimeout(10_000);
    return c;
  }

  /** A free port below the ephemeral range, so that no outgoing connection takes it meanwhile. */
  static int freePort() throws IOException {
    for (int port = 20_000 + (int) (Math.random() * 10_000); ; port++) {
      try (ServerSocket socket = new ServerSocket(port)) {
        return port;
      } catch (IOException taken) {
        // try the next one
      }
    }
  }
}
