package dev.onceonly.chaos;

import java.time.Duration;
import java.util.List;

/**
 * Scenario 12: a network partition cuts one node of a RabbitMQ cluster of three off from the other
 * two. A quarter into the window, every packet between the node that leads most of the consumer
 * queues and its peers is dropped ({@link LoopbackPartition}: a real partition of the brokers'
 * distribution traffic, not a paused process); clients can still reach the node. The majority
 * counts it lost and elects new leaders; the node, a minority, pauses itself ({@code
 * cluster_partition_handling = pause_minority}) and closes its client connections, so that its
 * consumers and publishers move to the majority. After half the window (at least 40 s) the
 * partition heals and the node rejoins by itself.
 */
final class RabbitPartition extends ClusterScenario {

  private static final String LOST = "the majority counts the node lost";
  private static final String PAUSED = "the node pauses (its AMQP port closed)";
  private long dropped = -1;

  /**
   * At least 40 s: the peers count a silent node lost within {@link
   * RabbitCluster#NET_TICKTIME_SECONDS} or so, and the consumers reconnect every 10 s.
   */
  private static final Duration SHORTEST = Duration.ofSeconds(40);

  RabbitPartition() {
    super(12, "RabbitMQ cluster: partition of the node leading the consumer queues", SHORTEST);
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    if (!LoopbackPartition.available()) {
      throw new IllegalStateException("tc (iproute2) is not available: no partition can be made");
    }
    Thread.sleep(faultStarts(lab.mode).toMillis());
    target = target();
    LoopbackPartition partition =
        stage
            .teardown()
            .add(
                new LoopbackPartition(
                    cluster.distributionPort(target.number()),
                    RabbitCluster.distributionSource(target.number())));
    partition.cut();
    milestones = new Milestones();
    lab.faults.incrementAndGet();
    Lab.say("partitioned %s (leader of %s) from the other nodes", target.node(), target.leads());
    PrivateRabbit asked = other(target.number());
    int amqpPort = cluster.amqpPort(target.number());
    long healAt = System.nanoTime() + faultLasts(lab.mode).toNanos();
    while (System.nanoTime() < healAt) {
      List<String> running = running(asked);
      milestones.check(LOST, running != null && !running.contains(target.node()));
      milestones.check(PAUSED, !accepts(amqpPort));
      watchQueues(asked);
      Thread.sleep(500);
    }
    dropped = partition.dropped();
    partition.heal();
    Lab.say("partition healed: %d packets dropped", dropped);
    long rejoinBound = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < rejoinBound && !milestones.reached(REJOINED)) {
      List<String> running = running(asked);
      milestones.check(
          REJOINED, running != null && running.size() == RabbitCluster.SIZE && accepts(amqpPort));
      Thread.sleep(500);
    }
  }

  @Override
  List<String> checks(Lab lab, Run run) throws Exception {
    notes.add(dropped + " packets of the node's distribution traffic dropped");
    return outcome(lab, run, "cut off", List.of(LOST, PAUSED, LEADERS, CONSUMERS, REJOINED));
  }
}
