package dev.onceonly.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A real Kafka broker for tests, without Docker: deploy/kafka-broker's single-node KRaft broker
 * (broker and controller in one process) started as a process of its own, so that none of its class
 * path (Kafka's server, Scala) reaches the test's. It listens on 127.0.0.1 on a port below 32768
 * (its controller on the next one), keeps its storage and its log ({@code broker.log}) in its data
 * directory, and stops when the test JVM ends, even by kill -9.
 *
 * <pre>{@code
 * KafkaBroker broker = KafkaBroker.shared();                 // one per test JVM, never killed
 * try (KafkaBroker own = KafkaBroker.builder().autoCreateTopics(false).start()) {
 *   own.kill();                                              // kill -9
 *   own.start();                                             // same port, same data: records kept
 * }
 * }</pre>
 *
 * The broker module must be built (target/classes and target/lib): the reactor builds it before
 * test-support, which names it as a dependency for that order only. JVM options for the broker
 * process: {@code KAFKA_BROKER_JAVA_OPTS} in the environment, else {@link #DEFAULT_JAVA_OPTS}.
 */
public final class KafkaBroker implements AutoCloseable {

  public static final String HOST = "127.0.0.1";

  /** Small heap, no C2 compiler: a start takes about 40 % less CPU time than with Kafka's own. */
  public static final String DEFAULT_JAVA_OPTS =
      "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError";

  static final String MAIN_CLASS = "dev.onceonly.kafkabroker.KafkaBrokerMain";
  static final String READY = "onceonly-kafka-broker ready: bootstrap=";
  static final String LOG_FILE = "broker.log";
  private static final int EXIT_PORT_TAKEN = 3;
  private static final int LOWEST_PORT = 20_000;
  private static final int HIGHEST_PORT = 32_766; // the controller takes the next one
  private static final int PORT_ATTEMPTS = 5;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  private static KafkaBroker shared;

  private final Path home;
  private final Path dataDir;
  private final List<String> options;
  private final Duration startTimeout;
  private final boolean portChosen;
  private int port;
  private Process process;

  private KafkaBroker(Builder builder, Path home) {
    this.home = home;
    this.dataDir = builder.dataDir;
    this.options = List.copyOf(builder.options);
    this.startTimeout = builder.startTimeout;
    this.portChosen = builder.port == 0;
    this.port = builder.port;
  }

  /** The broker every test of this JVM may share (started on first use, stopped at JVM exit). */
  public static synchronized KafkaBroker shared() {
    if (shared == null || !shared.isRunning()) {
      KafkaBroker broker = builder().start();
      Runtime.getRuntime().addShutdownHook(new Thread(broker::stop, "kafka-broker-stop"));
      shared = broker;
    }
    return shared;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code 127.0.0.1:<port>}: the same before and after a restart. */
  public String bootstrapServers() {
    return HOST + ":" + port;
  }

  public int port() {
    return port;
  }

  public Path dataDir() {
    return dataDir;
  }

  /** Where the broker process writes its output, every start appended. */
  public Path logFile() {
    return dataDir.resolve(LOG_FILE);
  }

  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The broker process' id, for tests that signal it themselves. */
  public synchronized long pid() {
    if (process == null) {
      throw new IllegalStateException("the Kafka broker on port " + port + " was never started");
    }
    return process.pid();
  }

  /**
   * Starts the broker, or starts it again on the same port and data directory after {@link #stop}
   * or {@link #kill}, and waits until it serves clients.
   *
   * @throws IllegalStateException if it exits or is not ready in time; the message names the log
   */
  public synchronized void start() {
    if (isRunning()) {
      throw new IllegalStateException("the Kafka broker on port " + port + " is running already");
    }
    for (int attempt = 1; ; attempt++) {
      if (port == 0) {
        port = freePortPair();
      }
      try {
        launch();
        return;
      } catch (PortTakenException e) {
        if (!portChosen || attempt == PORT_ATTEMPTS) {
          throw e;
        }
        port = 0; // taken since we looked: another port
      }
    }
  }

  /** SIGTERM, then waits for a clean shutdown (kill -9 after 30 s). Does nothing if it is down. */
  public synchronized void stop() {
    if (!isRunning()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    }
  }

  /** kill -9: the broker gets no chance to flush or deregister. Waits until the process is gone. */
  public synchronized void kill() {
    if (!isRunning()) {
      return;
    }
    process.destroyForcibly();
    try {
      process.onExit().get(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(
          "the Kafka broker process " + process.pid() + " survived kill -9", e);
    }
  }

  /** Stops the broker if it runs (cleanly) and starts it again on the same port and data. */
  public synchronized void restart() {
    stop();
    start();
  }

  @Override
  public void close() {
    stop();
  }

  private void launch() {
    Path log = logFile();
    long from;
    try {
      Files.createDirectories(dataDir);
      from = Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot prepare the Kafka broker's data directory " + dataDir, e);
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(javaOptions());
    command.add("-cp");
    command.add(
        home.resolve("target/classes") + File.pathSeparator + home.resolve("target/lib") + "/*");
    command.add(MAIN_CLASS);
    command.add("--port=" + port);
    command.add("--controller-port=" + (port + 1));
    command.add("--data-dir=" + dataDir);
    command.add("--watch-pid=" + ProcessHandle.current().pid());
    command.addAll(options);
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start the Kafka broker: " + String.join(" ", command), e);
    }
    awaitReady(log, from);
  }

  private void awaitReady(Path log, long from) {
    long deadline = System.nanoTime() + startTimeout.toNanos();
    while (true) {
      String output = readFrom(log, from);
      if (output.contains(READY)) {
        return;
      }
      if (!process.isAlive()) {
        int status = process.exitValue();
        String message =
            "the Kafka broker for port "
                + port
                + " exited with status "
                + status
                + " before it was ready; its log is "
                + log
                + ":\n"
                + lastLines(output, 20);
        throw status == EXIT_PORT_TAKEN
            ? new PortTakenException(message)
            : new IllegalStateException(message);
      }
      if (System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "the Kafka broker for port "
                + port
                + " was not ready within "
                + startTimeout.toSeconds()
                + " s and was killed; its log is "
                + log
                + ":\n"
                + lastLines(output, 20));
      }
      pause();
    }
  }

  private static List<String> javaOptions() {
    String options = System.getenv("KAFKA_BROKER_JAVA_OPTS");
    if (options == null || options.isBlank()) {
      options = DEFAULT_JAVA_OPTS;
    }
    return Arrays.asList(options.trim().split("\\s+"));
  }

  /** Two consecutive ports below 32768 that nothing listens on (the client's, the controller's). */
  static int freePortPair() {
    for (int i = 0; i < 100; i++) {
      int candidate = ThreadLocalRandom.current().nextInt(LOWEST_PORT, HIGHEST_PORT);
      if (free(candidate) && free(candidate + 1)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "no two free consecutive ports between " + LOWEST_PORT + " and " + (HIGHEST_PORT + 1));
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(HOST, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String readFrom(Path log, long from) {
    try {
      byte[] bytes = Files.readAllBytes(log);
      return from >= bytes.length
          ? ""
          : new String(bytes, (int) from, bytes.length - (int) from, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static String lastLines(String output, int count) {
    List<String> lines = output.lines().toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for the Kafka broker", e);
    }
  }

  /** Where deploy/kafka-broker is: the nearest directory up from the working one that has it. */
  static Path brokerModule() {
    String configured = System.getProperty("onceonly.kafka-broker.home");
    if (configured != null) {
      return Path.of(configured).toAbsolutePath();
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path module = dir.resolve("deploy/kafka-broker");
      if (Files.isRegularFile(module.resolve("pom.xml"))) {
        return module;
      }
    }
    throw new IllegalStateException(
        "cannot find deploy/kafka-broker above "
            + Path.of("").toAbsolutePath()
            + "; set -Donceonly.kafka-broker.home=<path to deploy/kafka-broker>");
  }

  /** The broker could not listen on its port: something else did. */
  static final class PortTakenException extends IllegalStateException {
    PortTakenException(String message) {
      super(message);
    }
  }

  /** Options of a broker of one's own; {@link #start()} launches it. */
  public static final class Builder {

    private Path dataDir;
    private int port;
    private final List<String> options = new ArrayList<>();
    private Duration startTimeout = Duration.ofSeconds(120);

    private Builder() {}

    /**
     * Its home: storage, log, pid file. Default: a new directory under target/ (or the temp dir).
     */
    public Builder dataDir(Path dataDir) {
      this.dataDir = dataDir.toAbsolutePath();
      return this;
    }

    /** Its client port, 1024..32766 (the controller takes the next). Default: a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** Whether a topic is created on first use (default true). */
    public Builder autoCreateTopics(boolean enabled) {
      options.add("--auto-create-topics=" + enabled);
      return this;
    }

    /** Partitions of a topic created on first use (default 1). */
    public Builder partitions(int partitions) {
      options.add("--partitions=" + partitions);
      return this;
    }

    /** Any broker property, e.g. {@code log.retention.ms}; wins over the module's defaults. */
    public Builder brokerProperty(String key, String value) {
      options.add("--set=" + key + "=" + value);
      return this;
    }

    /** How long a start may take before it fails (default 120 s: a loaded 2-core machine). */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    /** Starts the broker and waits until it serves clients. */
    public KafkaBroker start() {
      Path home = brokerModule();
      if (!Files.isDirectory(home.resolve("target/lib"))
          || !Files.isDirectory(home.resolve("target/classes"))) {
        throw new IllegalStateException(
            "the Kafka broker is not built: "
                + home.resolve("target/lib")
                + " or target/classes is missing. Build it with"
                + " ./mvnw -B -pl deploy/kafka-broker -DskipTests package");
      }
      if (dataDir == null) {
        dataDir = newDataDir();
      }
      KafkaBroker broker = new KafkaBroker(this, home);
      broker.start();
      return broker;
    }

    private static Path newDataDir() {
      Path target = Path.of("target");
      try {
        return Files.isDirectory(target)
            ? Files.createTempDirectory(target.toAbsolutePath(), "kafka-broker-")
            : Files.createTempDirectory("onceonly-kafka-broker-");
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a data directory for a Kafka broker", e);
      }
    }
  }
}
