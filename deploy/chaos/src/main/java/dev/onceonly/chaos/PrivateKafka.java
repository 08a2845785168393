package dev.onceonly.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Kafka broker of the scenario's own: deploy/kafka-broker's single-node KRaft broker, run by its
 * {@code kafka.sh} on a port of the suite (its controller on the next one), its storage in a
 * temporary directory. Stopped and started again on the same directory it keeps its topics, records
 * and the groups' committed offsets, as a restarted broker does.
 */
final class PrivateKafka implements AutoCloseable {

  private final Path script;
  private final Path dir;
  private final int port;
  private final List<String> options;

  private PrivateKafka(Path script, Path dir, int port, List<String> options) {
    this.script = script;
    this.dir = dir;
    this.port = port;
    this.options = options;
  }

  /**
   * Starts a broker on {@code port} whose topics created on first use have {@code partitions}
   * partitions, and waits until it serves clients.
   */
  static PrivateKafka start(Path root, int port, int partitions)
      throws IOException, InterruptedException {
    PrivateKafka kafka =
        new PrivateKafka(
            root.resolve("deploy/kafka-broker/kafka.sh"),
            Files.createTempDirectory("onceonly-chaos-kafka"),
            port,
            List.of(
                "--partitions=" + partitions,
                // a scenario's stream outlives the broker's test default of one hour of retention
                "--set=log.retention.hours=24"));
    kafka.startAgain();
    return kafka;
  }

  String bootstrap() {
    return "127.0.0.1:" + port;
  }

  /** Starts it (again) on its port and directory; waits until it serves clients. */
  void startAgain() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(script.toString(), "start"));
    command.add(Integer.toString(port));
    command.add(dir.toString());
    command.addAll(options);
    Shell.run(Map.of(), null, 180, command.toArray(String[]::new));
  }

  /** SIGTERM: a clean shutdown (the controller hands nothing over: it is the only node). */
  void stop() throws IOException, InterruptedException {
    Shell.run(
        Map.of(), null, 60, script.toString(), "stop", Integer.toString(port), dir.toString());
  }

  boolean running() throws IOException, InterruptedException {
    return Shell.attempt(
                Map.of(),
                null,
                30,
                script.toString(),
                "status",
                Integer.toString(port),
                dir.toString())
            .code()
        == 0;
  }

  @Override
  public void close() throws Exception {
    Shell.attempt(
        Map.of(), null, 60, script.toString(), "kill", Integer.toString(port), dir.toString());
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Override
  public String toString() {
    return "Kafka broker on " + port + " (" + dir + ")";
  }
}
