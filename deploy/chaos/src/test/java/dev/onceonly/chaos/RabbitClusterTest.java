package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RabbitClusterTest {

  private static final String N1 = "onceonly-chaos-1@localhost";
  private static final String N2 = "onceonly-chaos-2@localhost";

  @Test
  void readsLeaderAndConsumersOfTheQueuesAskedFor() {
    String listing =
        "onceonly.loyalty\t"
            + N2
            + "\t4\n"
            + "onceonly.loyalty.dlq\t"
            + N1
            + "\t0\n"
            + "onceonly.receipts\t"
            + N1
            + "\t3\n";

    Map<String, RabbitCluster.Queue> queues =
        RabbitCluster.parseQueues(listing, ClusterScenario.CONSUMER_QUEUES);

    assertThat(queues)
        .containsExactly(
            Map.entry("onceonly.loyalty", new RabbitCluster.Queue(N2, 4)),
            Map.entry("onceonly.receipts", new RabbitCluster.Queue(N1, 3)));
  }

  @Test
  void theTargetLeadsMostConsumerQueuesAndTiesGoToTheFirstQueuesLeader() {
    Map<String, RabbitCluster.Queue> twoOnN2 =
        Map.of(
            "onceonly.loyalty", new RabbitCluster.Queue(N1, 2),
            "onceonly.receipts", new RabbitCluster.Queue(N2, 2),
            "onceonly.profiles", new RabbitCluster.Queue(N2, 2));
    Map<String, RabbitCluster.Queue> tie =
        Map.of(
            "onceonly.loyalty", new RabbitCluster.Queue(N2, 2),
            "onceonly.receipts", new RabbitCluster.Queue(N1, 2));

    assertThat(RabbitCluster.busiestLeader(twoOnN2, ClusterScenario.CONSUMER_QUEUES)).isEqualTo(N2);
    assertThat(RabbitCluster.busiestLeader(tie, ClusterScenario.CONSUMER_QUEUES)).isEqualTo(N2);
    assertThatThrownBy(() -> RabbitCluster.busiestLeader(Map.of(), ClusterScenario.CONSUMER_QUEUES))
        .hasMessageContaining("has a leader");
  }

  @Test
  void countsTheMembersOfEachQueue() {
    String listing =
        "onceonly.loyalty\t["
            + N1
            + ", "
            + N2
            + ", onceonly-chaos-3@localhost]\n"
            + "onceonly.profiles\t["
            + N1
            + "]\n"
            + "classic.queue\t\n";

    assertThat(RabbitCluster.parseMembers(listing))
        .containsExactly(
            Map.entry("onceonly.loyalty", 3),
            Map.entry("onceonly.profiles", 1),
            Map.entry("classic.queue", 0));
  }

  @Test
  void readsTheRunningNodesAsEvalPrintsThem() {
    assertThat(RabbitCluster.parseNodeList("['" + N2 + "','" + N1 + "',\n 'x@localhost']\n"))
        .containsExactly(N2, N1, "x@localhost");
    assertThat(RabbitCluster.parseNodeList("[]\n")).isEmpty();
  }

  @Test
  void eachNodePausesAsAMinorityAndLeavesFromItsOwnLoopbackAddress() {
    assertThat(RabbitCluster.config(28682))
        .contains("listeners.tcp.local = 127.0.0.1:28682")
        .contains("cluster_partition_handling = pause_minority");
    assertThat(RabbitCluster.advancedConfig(2))
        .isEqualTo(
            "[{kernel, [{net_ticktime, 15}, {inet_dist_connect_options, [{ip, {127,0,0,12}}]}]}].\n");
    assertThat(List.of(1, 2, 3).stream().map(RabbitCluster::distributionSource))
        .containsExactly("127.0.0.11", "127.0.0.12", "127.0.0.13");
  }

  @Test
  void refusesPortsInTheEphemeralRange() {
    assertThatThrownBy(() -> RabbitCluster.start(32740))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("below 32768");
  }

  @Test
  void aQueueWithFewerThanThreeMembersStopsTheStart() {
    Map<String, Integer> members = new java.util.HashMap<>();
    Lab.QUEUES.forEach(q -> members.put(q, 3));
    ClusterScenario.requireReplicated(members);

    members.put("onceonly.receipts.dlq", 1);
    members.remove("onceonly.profiles");
    assertThatThrownBy(() -> ClusterScenario.requireReplicated(members))
        .hasMessageContaining("onceonly.receipts.dlq (1 members)")
        .hasMessageContaining("onceonly.profiles (0 members)");
  }
}
