package dev.onceonly.bench;

import java.util.Locale;
import java.util.Map;

/**
 * Waits until the machine, the idle consumer aside, uses less than a share of one core (between
 * phases nothing of the benchmark runs, so that is other people's builds and tests, and their use
 * of PostgreSQL and RabbitMQ), so that a measurement does not start in the middle of someone else's
 * burst: {@code QuietGate <max-pct> <max-wait-seconds> [consumer-pid]}. Prints the seconds waited
 * and the last reading as {@code quiet_wait_seconds=} and {@code quiet_others_pct=}; never fails,
 * the phase then runs anyway and reports its own figure.
 */
public final class QuietGate {

  private QuietGate() {}

  public static void main(String[] args) throws InterruptedException {
    double maxPct = Double.parseDouble(args[0]);
    long maxWaitNanos = Long.parseLong(args[1]) * 1_000_000_000L;
    long consumerPid = args.length > 2 ? Long.parseLong(args[2]) : 0;
    long started = System.nanoTime();
    double others;
    do {
      CpuGroups cpu = new CpuGroups(consumerPid);
      cpu.start();
      Thread.sleep(2_000);
      Map<String, Double> pct = cpu.stop();
      others = pct.get(CpuGroups.MACHINE) - pct.get(CpuGroups.CONSUMER);
    } while (others >= maxPct && System.nanoTime() - started < maxWaitNanos);
    System.out.printf(
        Locale.ROOT,
        "quiet_wait_seconds=%.0f%nquiet_others_pct=%.1f%n",
        (System.nanoTime() - started) / 1e9,
        others);
  }
}
