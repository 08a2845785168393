package dev.onceonly.chaos;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario on a RabbitMQ cluster of three nodes ({@link RabbitCluster}) instead of the suite's
 * single node: it starts a PostgreSQL, the cluster and a fleet of its own, the consumers given the
 * three nodes' addresses ({@code RABBITMQ_ADDRESSES}). The services declare their queues as quorum
 * queues (their default, docs/rabbitmq.md), replicated on the three nodes; the start checks that
 * they are. The fault strikes the node that leads most of the consumer queues.
 */
abstract class ClusterScenario extends Scenario implements StandaloneScenario {

  static final List<String> CONSUMER_QUEUES =
      List.of("onceonly.loyalty", "onceonly.receipts", "onceonly.profiles");

  static final String LEADERS = "leaders on the other nodes";
  static final String CONSUMERS = "every queue's consumers back";
  static final String REJOINED = "the node back in the cluster";

  RabbitCluster cluster;
  StandaloneScenario.Stage stage;

  /** The node the fault struck, once it has. */
  Target target;

  /** What was seen after the fault, from its start. */
  Milestones milestones;

  private final Duration shortestFault;

  /** {@code shortestFault}: the fault lasts half the window, and at least this long. */
  ClusterScenario(int number, String name, Duration shortestFault) {
    super(number, name);
    this.shortestFault = shortestFault;
  }

  /** How long the fault lasts: half the window, and at least the scenario's shortest. */
  Duration faultLasts(Mode mode) {
    Duration half = mode.window().dividedBy(2);
    return half.compareTo(shortestFault) > 0 ? half : shortestFault;
  }

  /** The fault starts a quarter into the window. */
  static Duration faultStarts(Mode mode) {
    return mode.window().dividedBy(4);
  }

  /** The stream flows until the fault ends. */
  @Override
  Duration spread(Lab lab) {
    return faultStarts(lab.mode).plus(faultLasts(lab.mode));
  }

  @Override
  public int number() {
    return number;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Result run(StandaloneScenario.Stage stage) throws Exception {
    this.stage = stage;
    long started = System.nanoTime();
    PrivatePostgres pg = stage.teardown().add(PrivatePostgres.start(stage.portBase() + 432));
    cluster = stage.teardown().add(RabbitCluster.start(stage.portBase() + 672));
    Fleet fleet =
        stage
            .teardown()
            .add(
                new Fleet(
                    stage.root(), stage.runDir(), stage.portBase(), pg.jdbcUrl(), cluster.nodes()));
    Lab.say(
        "RabbitMQ cluster of %d nodes on %s (%d s)",
        RabbitCluster.SIZE,
        dev.onceonly.model.BrokerNodes.text(cluster.nodes()),
        secondsSince(started));
    fleet.start();
    requireReplicated(RabbitCluster.members(cluster.running()));
    Lab.say("fleet ready, queues replicated on all nodes (%d s)", secondsSince(started));
    return execute(new Lab(pg, cluster, fleet, stage.mode(), stage.seed() + number));
  }

  /** Fails, naming them, if a queue of the lab is missing or not a quorum queue on every node. */
  static void requireReplicated(Map<String, Integer> members) {
    List<String> short_ = new ArrayList<>();
    for (String queue : Lab.QUEUES) {
      int n = members.getOrDefault(queue, 0);
      if (n != RabbitCluster.SIZE) {
        short_.add(queue + " (" + n + " members)");
      }
    }
    if (!short_.isEmpty()) {
      throw new IllegalStateException(
          "queues not replicated as quorum queues on all "
              + RabbitCluster.SIZE
              + " nodes: "
              + short_);
    }
  }

  /** The node (its number) that leads most consumer queues, and what it leads. */
  record Target(int number, String node, List<String> leads, Map<String, Integer> consumers) {}

  Target target() throws IOException, InterruptedException {
    Map<String, RabbitCluster.Queue> seen =
        RabbitCluster.queues(cluster.running(), CONSUMER_QUEUES);
    String node = RabbitCluster.busiestLeader(seen, CONSUMER_QUEUES);
    List<String> leads =
        CONSUMER_QUEUES.stream()
            .filter(q -> seen.containsKey(q) && seen.get(q).leader().equals(node))
            .toList();
    Map<String, Integer> consumers = new LinkedHashMap<>();
    seen.forEach((q, v) -> consumers.put(q, v.consumers()));
    return new Target(cluster.numberOf(node), node, leads, consumers);
  }

  /** A node other than {@code number}, to ask while that one is down or cut off. */
  PrivateRabbit other(int number) {
    return cluster.node(number % RabbitCluster.SIZE + 1);
  }

  /**
   * What {@code asked} sees of the consumer queues after the fault on {@code target}: whether every
   * one has a leader on another node, and as many consumers as before.
   */
  static boolean leadersMoved(Map<String, RabbitCluster.Queue> seen, Target target) {
    return CONSUMER_QUEUES.stream()
        .allMatch(q -> seen.containsKey(q) && !seen.get(q).leader().equals(target.node()));
  }

  static boolean consumersBack(Map<String, RabbitCluster.Queue> seen, Target target) {
    return CONSUMER_QUEUES.stream()
        .allMatch(
            q ->
                seen.containsKey(q)
                    && seen.get(q).consumers() >= target.consumers().getOrDefault(q, 0));
  }

  /** Checks, from {@code asked}, whether the consumer queues have new leaders and consumers. */
  void watchQueues(PrivateRabbit asked) throws InterruptedException {
    Map<String, RabbitCluster.Queue> seen;
    try {
      seen = RabbitCluster.queues(asked, CONSUMER_QUEUES);
    } catch (IOException e) {
      return; // a queue without a leader yet may not answer: asked again next time
    }
    milestones.check(LEADERS, leadersMoved(seen, target));
    milestones.check(CONSUMERS, consumersBack(seen, target));
  }

  /** The nodes {@code asked} counts as running, or null if it does not answer this time. */
  static List<String> running(PrivateRabbit asked) throws InterruptedException {
    try {
      return RabbitCluster.runningNodes(asked);
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * The notes and problems every cluster scenario has: {@code what} was done to the target and how
   * long, the milestones seen from then on, what the stream published again; a problem for each
   * milestone not reached and a cluster not whole again.
   */
  List<String> outcome(Lab lab, Run run, String what, List<String> expected) throws Exception {
    if (target == null) {
      return List.of("the fault never struck a node");
    }
    notes.add(
        what
            + " "
            + target.node()
            + " (leader of "
            + String.join(", ", target.leads())
            + ") for "
            + faultLasts(lab.mode).toSeconds()
            + " s; from then: "
            + milestones.describe(expected));
    notes.add(
        run.sent().republished() + " messages published again (chunks the broker did not confirm)");
    List<String> problems = new ArrayList<>();
    for (String milestone : expected) {
      if (!milestones.reached(milestone)) {
        problems.add("not seen: " + milestone);
      }
    }
    problems.addAll(clusterWhole());
    return problems;
  }

  /** Whether a TCP connection to the port is accepted (a paused node closes its listener). */
  static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 1_000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Moments reached after a fault, in seconds from it: each recorded the first time its condition
   * holds.
   */
  static final class Milestones {
    private final long from = System.nanoTime();
    private final Map<String, Double> reached = new LinkedHashMap<>();

    void check(String milestone, boolean met) {
      if (met && !reached.containsKey(milestone)) {
        reached.put(milestone, (System.nanoTime() - from) / 1e9);
        Lab.say("%s after %.1f s", milestone, reached.get(milestone));
      }
    }

    boolean reached(String milestone) {
      return reached.containsKey(milestone);
    }

    /** "a 1.2 s, b 3.4 s, c not seen" for the given milestones in that order. */
    String describe(List<String> milestones) {
      List<String> parts = new ArrayList<>();
      for (String m : milestones) {
        Double s = reached.get(m);
        parts.add(m + (s == null ? " not seen" : String.format(" %.1f s", s)));
      }
      return String.join("; ", parts);
    }
  }

  /** Fails the scenario's checks unless all three nodes run in one cluster again. */
  List<String> clusterWhole() throws IOException, InterruptedException {
    List<String> running = RabbitCluster.runningNodes(cluster.running());
    if (running.size() != RabbitCluster.SIZE) {
      return List.of("the cluster runs " + running + " after the fault, not all three nodes");
    }
    return List.of();
  }

  private static long secondsSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000_000L;
  }
}
