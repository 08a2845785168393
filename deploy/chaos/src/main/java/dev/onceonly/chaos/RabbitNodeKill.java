package dev.onceonly.chaos;

import java.time.Duration;
import java.util.List;

/**
 * Scenario 11: a RabbitMQ cluster of three loses a node. A quarter into the window, the node that
 * leads most of the consumer queues is killed with SIGKILL (no clean shutdown, its client
 * connections reset); it stays down for half the window (at least 30 s) while the stream keeps
 * flowing, then starts again on its data and rejoins. The quorum queues elect leaders on the other
 * two nodes; consumers connected to the lost node reconnect to another node of their list; messages
 * they held unacked go back to the queue and are redelivered; the stream republishes what the
 * broker did not confirm.
 */
final class RabbitNodeKill extends ClusterScenario {

  /** Down at least 30 s: three of the consumers' reconnect intervals. */
  private static final Duration SHORTEST = Duration.ofSeconds(30);

  RabbitNodeKill() {
    super(11, "RabbitMQ cluster: kill -9 the node leading the consumer queues, restart", SHORTEST);
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    Thread.sleep(faultStarts(lab.mode).toMillis());
    target = target();
    cluster.kill9(target.number());
    milestones = new Milestones();
    lab.faults.incrementAndGet();
    Lab.say("kill -9 %s, leader of %s", target.node(), target.leads());
    PrivateRabbit asked = other(target.number());
    long restartAt = System.nanoTime() + faultLasts(lab.mode).toNanos();
    while (System.nanoTime() < restartAt) {
      watchQueues(asked);
      Thread.sleep(500);
    }
    cluster.restart(target.number());
    Lab.say("%s started again", target.node());
    long rejoinBound = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < rejoinBound && !milestones.reached(REJOINED)) {
      watchQueues(asked);
      List<String> running = running(asked);
      milestones.check(REJOINED, running != null && running.size() == RabbitCluster.SIZE);
      Thread.sleep(500);
    }
  }

  @Override
  List<String> checks(Lab lab, Run run) throws Exception {
    return outcome(lab, run, "killed", List.of(LEADERS, CONSUMERS, REJOINED));
  }
}
