package dev.onceonly.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LoopbackPartitionTest {

  @Test
  void dropsTheNodesDistributionTrafficBothWaysAndNothingElse() {
    List<List<String>> commands = LoopbackPartition.cutCommands(28693, "127.0.0.13");

    // HTB with no default class: unclassified packets pass as they did without it
    assertThat(commands.get(0))
        .containsExactly("tc", "qdisc", "add", "dev", "lo", "root", "handle", "7a11:", "htb");
    assertThat(String.join(" ", commands.get(2))).endsWith("pfifo limit 0");
    assertThat(commands.subList(3, commands.size()).stream().map(c -> String.join(" ", c)))
        .containsExactly(
            "tc filter add dev lo parent 7a11: protocol ip prio 1 u32 match ip src 127.0.0.13/32 flowid 7a11:1",
            "tc filter add dev lo parent 7a11: protocol ip prio 1 u32 match ip dst 127.0.0.13/32 flowid 7a11:1",
            "tc filter add dev lo parent 7a11: protocol ip prio 1 u32 match ip sport 28693 0xffff flowid 7a11:1",
            "tc filter add dev lo parent 7a11: protocol ip prio 1 u32 match ip dport 28693 0xffff flowid 7a11:1");
  }

  @Test
  void readsTheDropsOfItsOwnQueueOnly() {
    String stats =
        """
        qdisc htb 7a11: root refcnt 2 r2q 10 default 0 direct_packets_stat 2853 direct_qlen 1000
         Sent 273522 bytes 2853 pkt (dropped 9, overlimits 0 requeues 0)
         backlog 0b 0p requeues 0
        qdisc pfifo 7a12: parent 7a11:1 limit 0p
         Sent 0 bytes 0 pkt (dropped 823, overlimits 0 requeues 0)
         backlog 0b 0p requeues 0
        """;

    assertThat(LoopbackPartition.droppedBy(stats)).isEqualTo(823);
    assertThat(LoopbackPartition.droppedBy("qdisc noqueue 0: root refcnt 2\n")).isEqualTo(-1);
  }
}
