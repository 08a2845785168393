package dev.onceonly.chaos;

import dev.onceonly.model.BrokerNodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A RabbitMQ node of the suite's own ({@code onceonly-chaos@localhost}, AMQP on its own port, no
 * plugins, data and logs in a temporary directory): the scenarios close its connections and restart
 * its application, which they must never do to the machine's shared broker. Default vhost, guest.
 * The nodes of a {@link RabbitCluster} are of this class too, each with a name, ports,
 * configuration and Erlang cookie of the cluster's.
 */
final class PrivateRabbit implements Rabbit {

  private static final Path SERVER = Path.of("/usr/sbin/rabbitmq-server");
  private static final Path CTL = Path.of("/usr/sbin/rabbitmqctl");

  /**
   * The scripts behind the two wrappers above. The wrappers set the home directory to the machine
   * node's, and with it its Erlang cookie; a cluster's nodes run these with a home of the
   * cluster's.
   */
  private static final Path SCRIPTS = Path.of("/usr/lib/rabbitmq/bin");

  private final Path dir;
  private final int port;
  private final String node;

  /** A cluster node's home, where the cluster's Erlang cookie is; null for the single node. */
  private final Path home;

  /** Further environment of the node and its CLI (a cluster's ports and advanced config). */
  private final Map<String, String> settings;

  private PrivateRabbit(Path dir, int port, String node, Path home, Map<String, String> settings) {
    this.dir = dir;
    this.port = port;
    this.node = node;
    this.home = home;
    this.settings = Map.copyOf(settings);
  }

  static boolean installed() {
    return Files.isExecutable(SERVER) && Files.isExecutable(CTL);
  }

  static String binaries() {
    return SERVER.getParent().toString();
  }

  /**
   * The policy docs/dead-letters.md asks of a broker older than 3.12 (this machine's is 3.10):
   * dead-letter queues keep their messages on disk, not in memory ({@code queue-mode: lazy}), as
   * every classic queue does from 3.12 on, where the setting is ignored. In the consumer benchmark,
   * with 15,000 dead letters waiting, it cut an invalid message's broker CPU from 0.37-0.41 ms to
   * 0.30-0.34 and lifted duplicates' rate with 10 % poison from 0.78-0.81 of their rate alone to
   * 0.85-1.01. Scenario 7, whose dead-letter queues the suite empties before each run, read 0.84
   * with it, within the range of twenty-run measures without it (0.81 to 0.88).
   */
  static final String DEAD_LETTER_POLICY = "onceonly-dead-letters";

  static final String DEAD_LETTER_QUEUES = "^onceonly\\.[^.]+\\.dlq$";
  static final String DEAD_LETTER_STORAGE = "{\"queue-mode\":\"lazy\"}";

  /** Starts a detached node and waits until its application runs. */
  static PrivateRabbit start(int port) throws Exception {
    Path dir = Files.createTempDirectory("onceonly-chaos-rabbit");
    String node =
        System.getenv().getOrDefault("CHAOS_RABBIT_NODE", "onceonly-chaos") + "@localhost";
    PrivateRabbit rabbit = new PrivateRabbit(dir, port, node, null, Map.of());
    Files.writeString(dir.resolve("enabled_plugins"), "[].\n");
    // The machine's /etc/rabbitmq/rabbitmq.conf names the shared node's listener: ours replaces it.
    Files.writeString(
        dir.resolve("rabbitmq.conf"), "listeners.tcp.local = 127.0.0.1:" + port + "\n");
    rabbit.launch();
    rabbit.ctl(
        "set_policy",
        "--apply-to",
        "queues",
        DEAD_LETTER_POLICY,
        DEAD_LETTER_QUEUES,
        DEAD_LETTER_STORAGE);
    return rabbit;
  }

  /**
   * A node of a cluster, not started: {@code dir} holds its {@code rabbitmq.conf} and {@code
   * enabled_plugins}, {@code home} the cluster's {@code .erlang.cookie}.
   */
  static PrivateRabbit clusterNode(
      Path dir, int port, String node, Path home, Map<String, String> settings) {
    return new PrivateRabbit(dir, port, node, home, settings);
  }

  /**
   * Starts the node detached, as the rabbitmq user when the suite runs as root (as the wrapper
   * would), and waits until its application runs; after a kill, on the data it had.
   */
  void launch() throws IOException, InterruptedException {
    if (Shell.isRoot()) {
      Shell.run(Map.of(), null, 10, "chown", "-R", "rabbitmq:rabbitmq", dir.toString());
    }
    String[] command =
        home == null
            ? new String[] {SERVER.toString(), "-detached"}
            : Shell.as(
                "rabbitmq",
                "env",
                "HOME=" + home,
                SCRIPTS.resolve("rabbitmq-server").toString(),
                "-detached");
    Shell.run(env(), dir, 60, command);
    awaitRunning(90);
  }

  private Map<String, String> env() {
    Map<String, String> env = new HashMap<>(settings);
    env.put("RABBITMQ_NODENAME", node);
    env.put("RABBITMQ_NODE_PORT", Integer.toString(port));
    env.put("RABBITMQ_DIST_PORT", Integer.toString(port + 1));
    env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
    env.put("RABBITMQ_LOG_BASE", dir.resolve("log").toString());
    env.put("RABBITMQ_PID_FILE", dir.resolve("node.pid").toString());
    env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
    env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString());
    if (home != null) {
      env.put("HOME", home.toString());
    }
    return env;
  }

  /** rabbitmqctl against this node. */
  private String[] ctlCommand(String... args) {
    List<String> command = new ArrayList<>();
    command.add(home == null ? CTL.toString() : SCRIPTS.resolve("rabbitmqctl").toString());
    command.addAll(List.of("-n", node));
    command.addAll(List.of(args));
    return command.toArray(String[]::new);
  }

  /** await_startup fails at once while the node is not registered yet: asked again until then. */
  void awaitRunning(long seconds) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    Shell.Result last;
    do {
      last = tryCtl(30, "await_startup", "--timeout", "10");
      if (last.code() == 0) {
        return;
      }
      Thread.sleep(500);
    } while (System.nanoTime() < deadline);
    throw new IOException("RabbitMQ node " + node + " did not start: " + last.output());
  }

  String ctl(String... args) throws IOException, InterruptedException {
    return Shell.run(env(), dir, 120, ctlCommand(args));
  }

  /** rabbitmqctl's exit code and output, whatever the code. */
  Shell.Result tryCtl(long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    return Shell.attempt(env(), dir, timeoutSeconds, ctlCommand(args));
  }

  /** The node's pid (the Erlang VM), if it runs. */
  @Override
  public List<Long> pids() {
    return ProcessCpu.pidFile(dir.resolve("node.pid"));
  }

  /** Closes every client connection; the count of connections there were. */
  int closeAllConnections(String why) throws IOException, InterruptedException {
    int open = ctl("-q", "list_connections", "name").strip().split("\n").length;
    ctl("close_all_connections", why);
    return open;
  }

  void stopApp() throws IOException, InterruptedException {
    ctl("stop_app");
  }

  void startApp() throws IOException, InterruptedException {
    ctl("start_app");
    awaitRunning(60);
  }

  /**
   * Fails, naming them, if any of {@code queues} is missing, or classic and not under {@link
   * #DEAD_LETTER_POLICY}: the consumers declare the queues, so this runs once they are up. A quorum
   * queue (the services' default, docs/rabbitmq.md) keeps its messages on disk by itself and takes
   * no queue mode, so it needs no policy.
   */
  void requireDeadLetterPolicy(Collection<String> queues) throws IOException, InterruptedException {
    List<String> without =
        withoutPolicy(ctl("-q", "list_queues", "name", "type", "policy"), queues);
    if (!without.isEmpty()) {
      throw new IllegalStateException(
          "dead-letter queues without the policy " + DEAD_LETTER_POLICY + ": " + without);
    }
  }

  /**
   * The {@code queues} that a {@code list_queues name type policy} listing does not show, or shows
   * as classic queues not under {@link #DEAD_LETTER_POLICY}, in the given order.
   */
  static List<String> withoutPolicy(String listing, Collection<String> queues) {
    Map<String, String[]> found = new HashMap<>();
    for (String line : listing.split("\n")) {
      String[] columns = line.strip().split("\\s+");
      if (columns.length >= 1 && !columns[0].isEmpty()) {
        found.put(columns[0], columns);
      }
    }
    List<String> without = new ArrayList<>();
    for (String queue : queues) {
      String[] columns = found.get(queue);
      boolean quorum = columns != null && columns.length >= 2 && "quorum".equals(columns[1]);
      boolean underPolicy =
          columns != null && columns.length >= 3 && DEAD_LETTER_POLICY.equals(columns[2]);
      if (columns == null || !(quorum || underPolicy)) {
        without.add(queue);
      }
    }
    return without;
  }

  @Override
  public void purge(String queue) throws IOException, InterruptedException {
    tryCtl(30, "purge_queue", queue);
  }

  @Override
  public void ensureRunning() throws IOException, InterruptedException {
    try {
      awaitRunning(5);
    } catch (IOException e) {
      Lab.say("the broker application of %s is not running: starting it", node);
      startApp();
    }
  }

  @Override
  public List<BrokerNodes.Node> nodes() {
    return List.of(new BrokerNodes.Node("127.0.0.1", port));
  }

  int port() {
    return port;
  }

  String node() {
    return node;
  }

  @Override
  public void close() throws Exception {
    try {
      tryCtl(60, "stop");
    } finally {
      Shell.run(Map.of(), null, 30, "rm", "-rf", dir.toString());
    }
  }
}
