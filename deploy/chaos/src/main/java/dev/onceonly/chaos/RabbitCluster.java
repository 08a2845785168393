package dev.onceonly.chaos;

import dev.onceonly.model.BrokerNodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Three private RabbitMQ nodes clustered on this machine ({@code onceonly-chaos-1..3@localhost}),
 * each with its data, logs and configuration in a directory of its own under one temporary
 * directory, an Erlang cookie of the cluster's, and its own AMQP and distribution ports: node
 * {@code i} (from 1) takes AMQP on {@code first + 10 (i - 1)} and distribution on the port after
 * it. Nodes 2 and 3 join node 1 with {@code rabbitmqctl join_cluster}. Scenarios 11 and 12 kill and
 * cut off its nodes, which they must never do to the machine's shared broker.
 *
 * <p>Each node is configured as docs/rabbitmq.md asks of a production cluster ({@code
 * cluster_partition_handling = pause_minority}), with two settings of the lab's: a peer that stops
 * answering counts as lost after {@link #NET_TICKTIME_SECONDS} (Erlang's default is 60 s), so that
 * a partition shows within a scenario, and node {@code i}'s outgoing distribution connections leave
 * from 127.0.0.{@code 10+i}, so that {@link LoopbackPartition} can tell one node's traffic from the
 * others' on the loopback interface.
 */
final class RabbitCluster implements Rabbit {

  static final int SIZE = 3;
  static final int PORT_STEP = 10;

  /**
   * The CLI's own distribution ports, {@code first + 30} to {@code first + 39}: rabbitmq-env's
   * default (35672-35682) lies in Linux's ephemeral range, where any outgoing connection may hold
   * one.
   */
  static final int CLI_PORTS = 30;

  static final int NET_TICKTIME_SECONDS = 15;

  private final Path dir;
  private final int firstPort;
  private final List<PrivateRabbit> nodes = new ArrayList<>();

  private RabbitCluster(Path dir, int firstPort) {
    this.dir = dir;
    this.firstPort = firstPort;
  }

  /** Starts the three nodes, joins them, and returns once all three run in one cluster. */
  static RabbitCluster start(int firstPort) throws Exception {
    if (firstPort + CLI_PORTS + 9 > 32767) {
      throw new IllegalArgumentException(
          "the cluster's ports must stay below 32768 (Linux's ephemeral range), first was "
              + firstPort);
    }
    Path dir = Files.createTempDirectory("onceonly-chaos-cluster");
    RabbitCluster cluster = new RabbitCluster(dir, firstPort);
    try {
      cluster.create();
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private void create() throws Exception {
    Path home = dir.resolve("home");
    Files.createDirectories(home);
    Path cookie = home.resolve(".erlang.cookie");
    Files.writeString(cookie, cookie());
    for (int i = 1; i <= SIZE; i++) {
      Path nodeDir = dir.resolve("node-" + i);
      Files.createDirectories(nodeDir);
      Files.writeString(nodeDir.resolve("enabled_plugins"), "[].\n");
      Files.writeString(nodeDir.resolve("rabbitmq.conf"), config(amqpPort(i)));
      Files.writeString(nodeDir.resolve("advanced.config"), advancedConfig(i));
      nodes.add(
          PrivateRabbit.clusterNode(
              nodeDir,
              amqpPort(i),
              nodeName(i),
              home,
              Map.of(
                  "RABBITMQ_ADVANCED_CONFIG_FILE",
                  nodeDir.resolve("advanced.config").toString(),
                  "RABBITMQ_CTL_DIST_PORT_MIN",
                  Integer.toString(firstPort + CLI_PORTS),
                  "RABBITMQ_CTL_DIST_PORT_MAX",
                  Integer.toString(firstPort + CLI_PORTS + 9))));
    }
    if (Shell.isRoot()) {
      // The nodes run as the rabbitmq user; Erlang reads a cookie only its owner may read.
      Shell.run(Map.of(), null, 10, "chown", "-R", "rabbitmq:rabbitmq", dir.toString());
    }
    Shell.run(Map.of(), null, 10, "chmod", "400", cookie.toString());
    for (PrivateRabbit node : nodes) {
      node.launch();
    }
    for (PrivateRabbit node : nodes.subList(1, SIZE)) {
      node.ctl("stop_app");
      node.ctl("join_cluster", nodes.get(0).node());
      node.ctl("start_app");
      node.awaitRunning(60);
    }
    List<String> running = runningNodes(nodes.get(0));
    if (running.size() != SIZE) {
      throw new IOException("the cluster runs " + running + ", not all " + SIZE + " nodes");
    }
  }

  static String nodeName(int i) {
    return System.getenv().getOrDefault("CHAOS_RABBIT_NODE", "onceonly-chaos")
        + "-"
        + i
        + "@localhost";
  }

  int amqpPort(int i) {
    return firstPort + PORT_STEP * (i - 1);
  }

  /** Node {@code i}'s distribution port. */
  int distributionPort(int i) {
    return amqpPort(i) + 1;
  }

  /** The address node {@code i}'s outgoing distribution connections leave from. */
  static String distributionSource(int i) {
    return "127.0.0." + (10 + i);
  }

  static String config(int amqpPort) {
    return "listeners.tcp.local = 127.0.0.1:"
        + amqpPort
        + "\n"
        + "cluster_partition_handling = pause_minority\n";
  }

  static String advancedConfig(int i) {
    return "[{kernel, [{net_ticktime, "
        + NET_TICKTIME_SECONDS
        + "}, {inet_dist_connect_options, [{ip, {"
        + distributionSource(i).replace('.', ',')
        + "}}]}]}].\n";
  }

  private static String cookie() {
    SecureRandom random = new SecureRandom();
    StringBuilder cookie = new StringBuilder();
    for (int i = 0; i < 32; i++) {
      cookie.append((char) ('A' + random.nextInt(26)));
    }
    return cookie.toString();
  }

  List<PrivateRabbit> members() {
    return List.copyOf(nodes);
  }

  /** Node {@code i} (from 1). */
  PrivateRabbit node(int i) {
    return nodes.get(i - 1);
  }

  /** The number (from 1) of the node with that Erlang name. */
  int numberOf(String nodeName) {
    for (int i = 1; i <= SIZE; i++) {
      if (nodes.get(i - 1).node().equals(nodeName)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no node " + nodeName + " in the cluster");
  }

  /**
   * Node {@code i}'s Erlang VM, if it runs: the pid its pid file names, if that process's
   * environment names the node (a pid file outlives its process, and the pid may go to another).
   */
  List<Long> vm(int i) {
    String name = nodes.get(i - 1).node();
    return nodes.get(i - 1).pids().stream()
        .filter(
            pid -> {
              try {
                byte[] environ = Files.readAllBytes(Path.of("/proc/" + pid + "/environ"));
                return new String(environ, StandardCharsets.ISO_8859_1)
                    .contains("RABBITMQ_NODENAME=" + name + "\0");
              } catch (IOException | RuntimeException e) {
                return false;
              }
            })
        .toList();
  }

  boolean alive(int i) {
    return !vm(i).isEmpty();
  }

  /** SIGKILL to node {@code i}'s Erlang VM; waits until it is gone. */
  void kill9(int i) throws IOException, InterruptedException {
    for (long pid : vm(i)) {
      Shell.attempt(Map.of(), null, 10, "kill", "-9", Long.toString(pid));
    }
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (alive(i)) {
      if (System.nanoTime() > deadline) {
        throw new IOException(nodeName(i) + " still runs 30 s after SIGKILL");
      }
      Thread.sleep(50);
    }
  }

  /** Starts node {@code i} again on its data; it rejoins the cluster by itself. */
  void restart(int i) throws IOException, InterruptedException {
    nodes.get(i - 1).launch();
  }

  /** A node whose application runs, asked first from node 1 on; fails if none does. */
  PrivateRabbit running() throws IOException, InterruptedException {
    for (int i = 1; i <= SIZE; i++) {
      if (alive(i) && nodes.get(i - 1).tryCtl(15, "await_startup", "--timeout", "5").code() == 0) {
        return nodes.get(i - 1);
      }
    }
    throw new IOException("no node of the cluster runs");
  }

  /** The nodes a node counts as running in its cluster. */
  static List<String> runningNodes(PrivateRabbit asked) throws IOException, InterruptedException {
    String listing = asked.ctl("-q", "eval", "rabbit_nodes:all_running().");
    return parseNodeList(listing);
  }

  /** {@code ['a@localhost','b@localhost']}, as {@code rabbitmqctl eval} prints a list of nodes. */
  static List<String> parseNodeList(String printed) {
    List<String> names = new ArrayList<>();
    for (String part : printed.replaceAll("[\\[\\]\\s]", "").split(",")) {
      String name = part.replace("'", "");
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return names;
  }

  /**
   * The leader and the number of consumers of each of {@code queues}, as {@code asked} sees them
   * (queues it does not list are left out).
   */
  static Map<String, Queue> queues(PrivateRabbit asked, Collection<String> queues)
      throws IOException, InterruptedException {
    return parseQueues(
        asked.ctl(
            "-q",
            "list_queues",
            "--timeout",
            "10",
            "--no-table-headers",
            "name",
            "leader",
            "consumers"),
        queues);
  }

  /** A quorum queue's leader and how many consumers it has. */
  record Queue(String leader, int consumers) {}

  /** A {@code list_queues name leader consumers} listing, for {@code queues}. */
  static Map<String, Queue> parseQueues(String listing, Collection<String> queues) {
    Map<String, Queue> found = new LinkedHashMap<>();
    for (String line : listing.split("\n")) {
      String[] columns = line.strip().split("\\s+");
      if (columns.length == 3 && queues.contains(columns[0])) {
        found.put(columns[0], new Queue(columns[1], Integer.parseInt(columns[2])));
      }
    }
    return found;
  }

  /** How many members each quorum queue has, as {@code asked} sees them; a classic queue has 0. */
  static Map<String, Integer> members(PrivateRabbit asked)
      throws IOException, InterruptedException {
    return parseMembers(asked.ctl("-q", "list_queues", "--no-table-headers", "name", "members"));
  }

  /** A {@code list_queues name members} listing: each queue and the nodes its members name. */
  static Map<String, Integer> parseMembers(String listing) {
    Map<String, Integer> found = new LinkedHashMap<>();
    for (String line : listing.split("\n")) {
      String[] columns = line.strip().split("\\s+", 2);
      if (columns.length >= 1 && !columns[0].isEmpty()) {
        String rest = columns.length == 2 ? columns[1] : "";
        found.put(columns[0], rest.split("@", -1).length - 1);
      }
    }
    return found;
  }

  /**
   * The node that leads most of {@code queues} in {@code seen}; of nodes leading as many, the
   * leader of the first queue that has one.
   */
  static String busiestLeader(Map<String, Queue> seen, List<String> queues) {
    Map<String, Integer> led = new LinkedHashMap<>();
    for (String queue : queues) {
      Queue q = seen.get(queue);
      if (q != null) {
        led.merge(q.leader(), 1, Integer::sum);
      }
    }
    return led.entrySet().stream()
        .reduce((a, b) -> b.getValue() > a.getValue() ? b : a)
        .map(Map.Entry::getKey)
        .orElseThrow(() -> new IllegalStateException("none of " + queues + " has a leader"));
  }

  @Override
  public List<BrokerNodes.Node> nodes() {
    List<BrokerNodes.Node> addresses = new ArrayList<>();
    for (int i = 1; i <= SIZE; i++) {
      addresses.add(new BrokerNodes.Node("127.0.0.1", amqpPort(i)));
    }
    return addresses;
  }

  @Override
  public void ensureRunning() throws IOException, InterruptedException {
    for (int i = 1; i <= SIZE; i++) {
      PrivateRabbit node = nodes.get(i - 1);
      if (!alive(i)) {
        Lab.say("%s is not running: starting it", node.node());
        node.launch();
      } else {
        node.ensureRunning();
      }
    }
  }

  @Override
  public void purge(String queue) throws IOException, InterruptedException {
    running().purge(queue);
  }

  @Override
  public List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    for (int i = 1; i <= SIZE; i++) {
      pids.addAll(vm(i));
    }
    return pids;
  }

  @Override
  public void close() throws Exception {
    try {
      for (int i = nodes.size(); i >= 1; i--) {
        if (alive(i)) {
          nodes.get(i - 1).tryCtl(60, "stop");
        }
        for (long pid : vm(i)) {
          // a node that would not stop (cut off, or paused as a minority) is killed
          Shell.attempt(Map.of(), null, 10, "kill", "-9", Long.toString(pid));
        }
      }
    } finally {
      Shell.run(Map.of(), null, 30, "rm", "-rf", dir.toString());
    }
  }

  @Override
  public String toString() {
    return "RabbitMQ cluster " + nodeName(1) + ".." + SIZE + " in " + dir;
  }
}
