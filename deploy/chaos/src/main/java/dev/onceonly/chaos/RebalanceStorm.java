package dev.onceonly.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario 16 (Kafka): a rebalance storm. Every 4 ± 2 s one of two members of the consumer groups
 * (consumer-2, and a third instance that exists for this scenario) leaves them (SIGTERM: a clean
 * stop, which commits what was acked in order and leaves the groups at once) or joins them (started
 * again), while consumer-1 stays: each change moves partitions between members, whose records in
 * hand and acked past the last commit are read again by the new owner. Each must still take effect
 * once. The storm ends with every member running.
 */
final class RebalanceStorm extends Scenario {

  private final List<ServiceProcess> members = new ArrayList<>();
  private int joins;
  private int leaves;

  RebalanceStorm() {
    super(16, "Kafka: rebalance storm, a member joins or leaves every 4±2 s");
  }

  /**
   * The third instance joins the fleet (ports + 5 and + 15, past the relays'), so that the fleet
   * stops it with the others, and starts with the stream: a first join.
   */
  @Override
  void before(Lab lab) throws Exception {
    if (lab.fleet.consumers.size() < 3) {
      lab.fleet.consumers.add(
          lab.fleet.consumer("consumer-3", lab.fleet.portBase + 5, lab.fleet.portBase + 15));
    }
    members.clear();
    members.addAll(lab.fleet.consumers.subList(1, 3));
    if (!members.get(1).alive()) {
      members.get(1).start();
      joins++;
    }
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    while (sleepUntil(
        System.nanoTime() + lab.jitter(Duration.ofSeconds(4), Duration.ofSeconds(2)).toNanos(),
        untilNanos)) {
      ServiceProcess member = members.get(lab.random.nextInt(members.size()));
      if (member.alive()) {
        member.terminate(Duration.ofSeconds(30));
        leaves++;
        Lab.say("%s left the consumer groups (SIGTERM)", member.name());
      } else {
        member.start();
        joins++;
        Lab.say("%s joins the consumer groups", member.name());
      }
      lab.faults.incrementAndGet();
    }
  }

  @Override
  void after(Lab lab) throws Exception {
    for (ServiceProcess member : members) {
      if (!member.alive()) {
        member.start();
      }
    }
  }

  @Override
  List<String> checks(Lab lab, Run run) {
    notes.add(joins + " joins and " + leaves + " leaves, each a rebalance of the three groups");
    return List.of();
  }
}
