package dev.onceonly.chaos;

import java.time.Duration;
import java.util.List;

/**
 * Scenario 17 (Kafka): the broker stopped mid-stream for as long as scenario 3 stops the database
 * (60 s in the full set, 10 s trimmed), then started again on its data. Meanwhile the consumers
 * cannot fetch or commit and the stream's publisher cannot send (it sends a chunk again once the
 * broker is back); afterwards the consumers reconnect and go on from their groups' committed
 * offsets, reading again what they had applied past them. Nothing may be lost or doubled; the note
 * says how long after the broker was back the whole stream had settled.
 */
final class KafkaOutage extends Scenario {

  private long backNanos;

  KafkaOutage() {
    super(17, "Kafka: broker stopped mid-stream (full 60 s, trimmed 10 s)");
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    PrivateKafka kafka = ((KafkaLab) lab).kafka;
    Duration down = lab.mode.databaseDown();
    Thread.sleep(lab.mode.window().toMillis() / 4);
    kafka.stop();
    lab.faults.incrementAndGet();
    Lab.say("Kafka broker stopped (SIGTERM) for %d s", down.toSeconds());
    Thread.sleep(down.toMillis());
    kafka.startAgain();
    backNanos = System.nanoTime();
    Lab.say("Kafka broker started again");
  }

  @Override
  List<String> checks(Lab lab, Run run) {
    if (run.recovery() != null) {
      long settled = run.faultEndNanos() + run.recovery().toNanos();
      notes.add(
          String.format("settled %.1f s after the broker was back", (settled - backNanos) / 1e9));
    }
    return List.of();
  }
}
