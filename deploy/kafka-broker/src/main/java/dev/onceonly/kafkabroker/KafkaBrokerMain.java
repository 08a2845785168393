package dev.onceonly.kafkabroker;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;

/**
 * A single-node Kafka in KRaft mode, broker and controller in this process: formats its storage on
 * the first start (in process, no kafka-storage tool), reuses it on every later one, prints {@link
 * #READY} once its client listener accepts connections, and shuts down cleanly on SIGTERM. Options:
 * {@link BrokerOptions}. Kafka's log goes to standard output; launchers send it to a file.
 *
 * <p>Exit status: 0 after a clean stop, {@value #EXIT_PORT_TAKEN} if a port it needs is taken,
 * {@value #EXIT_USAGE} for a wrong command line, 1 if the broker fails otherwise.
 */
public final class KafkaBrokerMain {

  /**
   * The start of the line printed once the broker serves clients; the bootstrap address follows.
   */
  public static final String READY = "onceonly-kafka-broker ready: bootstrap=";

  /** The file in the data directory that holds this process' id while it runs. */
  public static final String PID_FILE = "broker.pid";

  static final int EXIT_PORT_TAKEN = 3;
  static final int EXIT_USAGE = 64;
  private static final String PREFIX = "onceonly-kafka-broker: ";
  private static final long ACCEPT_TIMEOUT_MS = 10_000;

  private KafkaBrokerMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    BrokerOptions options;
    try {
      options = BrokerOptions.parse(List.of(args));
    } catch (IllegalArgumentException e) {
      System.err.println(PREFIX + e.getMessage());
      System.exit(EXIT_USAGE);
      return;
    }
    requireFree(options.port(), "the client listener (--port)");
    requireFree(options.controllerPort(), "the controller listener (--controller-port)");

    Path storage = options.storage();
    Files.createDirectories(storage);
    Path pidFile = options.dataDir().resolve(PID_FILE);
    Files.writeString(pidFile, ProcessHandle.current().pid() + "\n");
    KafkaConfig config = KafkaConfig.fromProps(options.brokerProperties(), false);
    formatIfNew(storage, out);

    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  out.println(PREFIX + "stopping");
                  server.shutdown();
                  deleteQuietly(pidFile);
                  out.println(PREFIX + "stopped");
                },
                "onceonly-kafka-broker-shutdown"));
    try {
      server.startup();
      awaitAccepting(options.port());
    } catch (Throwable e) {
      System.err.println(PREFIX + "failed to start: " + e);
      e.printStackTrace();
      System.exit(1);
    }
    out.println(
        READY
            + options.bootstrapServers()
            + " controller="
            + BrokerOptions.HOST
            + ":"
            + options.controllerPort()
            + " data="
            + options.dataDir()
            + " pid="
            + ProcessHandle.current().pid()
            + " jvm-uptime-ms="
            + ManagementFactory.getRuntimeMXBean().getUptime());
    if (options.watchPid() > 0) {
      stopWhenEnded(options.watchPid(), out);
    }
    server.awaitShutdown();
  }

  /** Formats the storage unless an earlier start did: a restart keeps every topic and offset. */
  private static void formatIfNew(Path storage, PrintStream out) throws Exception {
    if (Files.exists(storage.resolve("meta.properties"))) {
      out.println(PREFIX + "reusing the storage formatted in " + storage);
      return;
    }
    new Formatter()
        .setPrintStream(out)
        .setNodeId(BrokerOptions.NODE_ID)
        .setClusterId(Uuid.randomUuid().toString())
        .setControllerListenerName(BrokerOptions.CONTROLLER_LISTENER)
        .setMetadataLogDirectory(storage.toString())
        .addDirectory(storage.toString())
        .run();
  }

  /**
   * Fails with exit status {@value #EXIT_PORT_TAKEN} and a line naming the port if something
   * listens there already: clearer than Kafka's bind error deep in its start-up.
   */
  private static void requireFree(int port, String what) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(BrokerOptions.HOST, port));
    } catch (IOException e) {
      System.err.println(
          PREFIX
              + "port "
              + port
              + " on "
              + BrokerOptions.HOST
              + " is taken, so "
              + what
              + " cannot listen there ("
              + e.getMessage()
              + ")");
      System.exit(EXIT_PORT_TAKEN);
    }
  }

  private static void awaitAccepting(int port) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACCEPT_TIMEOUT_MS);
    while (true) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(BrokerOptions.HOST, port), 1_000);
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "the broker started but port "
                  + port
                  + " refuses connections after "
                  + ACCEPT_TIMEOUT_MS
                  + " ms",
              e);
        }
        Thread.sleep(20);
      }
    }
  }

  /** Stops the broker (through the shutdown hook) when the process that launched it ends. */
  private static void stopWhenEnded(long pid, PrintStream out) {
    ProcessHandle.of(pid)
        .map(ProcessHandle::onExit)
        .orElseGet(() -> java.util.concurrent.CompletableFuture.completedFuture(null))
        .thenRun(
            () -> {
              out.println(PREFIX + "process " + pid + " ended, stopping");
              System.exit(0);
            });
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a stale pid file is checked against the process' command line before anyone signals it
    }
  }
}
