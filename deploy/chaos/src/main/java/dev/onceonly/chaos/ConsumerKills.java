package dev.onceonly.chaos;

import java.time.Duration;

/**
 * Scenario 1: a consumer-service instance killed with SIGKILL every 10 ± 5 s while the stream
 * flows, and started again at once (as a supervisor would): the messages it had unacknowledged are
 * redelivered to the other instance or to itself, and each must still take effect once. Scenario 15
 * is the same on Kafka, where what the killed instance had read past its group's last committed
 * offsets is read again by whichever member the partition goes to.
 */
final class ConsumerKills extends Scenario {

  ConsumerKills() {
    this(1, "kill -9 a consumer every 10±5 s");
  }

  ConsumerKills(int number, String name) {
    super(number, name);
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    while (sleepUntil(
        System.nanoTime() + lab.jitter(Duration.ofSeconds(10), Duration.ofSeconds(5)).toNanos(),
        untilNanos)) {
      ServiceProcess victim = lab.fleet.consumers.get(lab.random.nextInt(2));
      victim.kill9();
      lab.faults.incrementAndGet();
      Lab.say("%s killed (SIGKILL), starting it again", victim.name());
      victim.start();
    }
  }
}
