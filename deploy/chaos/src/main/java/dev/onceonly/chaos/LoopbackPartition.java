package dev.onceonly.chaos;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A network partition of one node of a {@link RabbitCluster} from the others, made on the loopback
 * interface with {@code tc}: every packet of the node's distribution traffic (to or from its
 * distribution port, or from or to the address its outgoing distribution connections leave from) is
 * dropped, in both directions, as a cut cable would drop it; nothing is refused or reset. Its AMQP
 * port and epmd stay reachable, so clients can still connect to it: the partition is between the
 * brokers. This machine's kernel has no packet filter (no iptables or nftables) and no classifier
 * actions, so the packets are classified with {@code u32} into an HTB class whose queue holds none
 * ({@code pfifo limit 0}); every other packet on the interface bypasses the classes (HTB's default
 * class 0) as it did before.
 */
final class LoopbackPartition implements AutoCloseable {

  /** The handle of the root queueing discipline, so that only ours is ever removed. */
  static final String HANDLE = "7a11:";

  private final int distributionPort;
  private final String source;
  private boolean cut;

  LoopbackPartition(int distributionPort, String source) {
    this.distributionPort = distributionPort;
    this.source = source;
  }

  static boolean available() {
    try {
      return Shell.attempt(Map.of(), null, 10, "tc", "qdisc", "show", "dev", "lo").code() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The {@code tc} commands that cut the node off, in order. */
  static List<List<String>> cutCommands(int distributionPort, String source) {
    List<List<String>> commands = new ArrayList<>();
    commands.add(List.of("tc", "qdisc", "add", "dev", "lo", "root", "handle", HANDLE, "htb"));
    commands.add(
        List.of(
            "tc",
            "class",
            "add",
            "dev",
            "lo",
            "parent",
            HANDLE,
            "classid",
            HANDLE + "1",
            "htb",
            "rate",
            "1gbit",
            "quantum",
            "60000"));
    commands.add(
        List.of(
            "tc",
            "qdisc",
            "add",
            "dev",
            "lo",
            "parent",
            HANDLE + "1",
            "handle",
            "7a12:",
            "pfifo",
            "limit",
            "0"));
    for (List<String> match :
        List.of(
            List.of("src", source + "/32"),
            List.of("dst", source + "/32"),
            List.of("sport", Integer.toString(distributionPort), "0xffff"),
            List.of("dport", Integer.toString(distributionPort), "0xffff"))) {
      List<String> filter =
          new ArrayList<>(
              List.of(
                  "tc",
                  "filter",
                  "add",
                  "dev",
                  "lo",
                  "parent",
                  HANDLE,
                  "protocol",
                  "ip",
                  "prio",
                  "1",
                  "u32",
                  "match",
                  "ip"));
      filter.addAll(match);
      filter.addAll(List.of("flowid", HANDLE + "1"));
      commands.add(filter);
    }
    return commands;
  }

  /**
   * Drops the node's distribution traffic from now on. A cut of ours left by a run that was killed
   * is removed first; any other queueing discipline on loopback is someone else's, and refused.
   */
  synchronized void cut() throws IOException, InterruptedException {
    String existing = Shell.run(Map.of(), null, 10, "tc", "qdisc", "show", "dev", "lo");
    if (existing.contains("qdisc htb " + HANDLE + " root")) {
      Shell.run(Map.of(), null, 10, "tc", "qdisc", "del", "dev", "lo", "root", "handle", HANDLE);
      existing = Shell.run(Map.of(), null, 10, "tc", "qdisc", "show", "dev", "lo");
    }
    if (!existing.strip().startsWith("qdisc noqueue")) {
      throw new IOException(
          "the loopback interface has a queueing discipline already, not ours to replace: "
              + existing.strip());
    }
    cut = true;
    for (List<String> command : cutCommands(distributionPort, source)) {
      Shell.run(Map.of(), null, 10, command.toArray(String[]::new));
    }
  }

  /** Lets the traffic through again: removes our root qdisc (its classes and filters with it). */
  synchronized void heal() throws IOException, InterruptedException {
    if (cut) {
      Shell.run(Map.of(), null, 10, "tc", "qdisc", "del", "dev", "lo", "root", "handle", HANDLE);
      cut = false;
    }
  }

  /** Packets dropped so far by the cut (the pfifo's count), or -1 if unknown. */
  long dropped() throws InterruptedException {
    try {
      String stats = Shell.run(Map.of(), null, 10, "tc", "-s", "qdisc", "show", "dev", "lo");
      return droppedBy(stats);
    } catch (IOException e) {
      return -1;
    }
  }

  /** The dropped count of our pfifo ({@code 7a12:}) in {@code tc -s qdisc show}, or -1. */
  static long droppedBy(String stats) {
    boolean ours = false;
    for (String line : stats.split("\n")) {
      if (line.startsWith("qdisc ")) {
        ours = line.startsWith("qdisc pfifo 7a12:");
      } else if (ours && line.contains("dropped ")) {
        String after = line.substring(line.indexOf("dropped ") + 8);
        return Long.parseLong(after.substring(0, after.indexOf(',')).strip());
      }
    }
    return -1;
  }

  @Override
  public void close() throws Exception {
    heal();
  }

  @Override
  public String toString() {
    return "loopback partition of distribution port " + distributionPort + " and " + source;
  }
}
