package dev.onceonly.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Who used the CPU during a measurement: the consumer JVM, PostgreSQL, RabbitMQ (or the Kafka
 * broker, when given its pid), the benchmark's own processes (publisher, pgbench, the plain Kafka
 * consumer), and everything else on the machine (other people's builds and tests). Read from {@code
 * /proc/<pid>/stat} and {@code /proc/stat} at the start and the end; "others" is the machine's busy
 * time minus the named groups, so short-lived processes land there. Figures are percent of one core
 * (this machine has {@link #cores()} of them); {@code consumer_jit} is the part of the consumer's
 * time spent by its JIT compiler threads (warm-up not yet over).
 */
final class CpuGroups {

  static final String CONSUMER = "consumer";
  static final String CONSUMER_JIT = "consumer_jit";
  static final String POSTGRES = "postgres";
  static final String RABBITMQ = "rabbitmq";
  static final String KAFKA = "kafka";
  static final String BENCH = "bench";
  static final String OTHERS = "others";
  static final String MACHINE = "machine";

  private static final Set<String> RABBIT_COMMS =
      Set.of("beam.smp", "erl_child_setup", "inet_gethost", "epmd");
  private static final double TICKS_PER_SECOND = 100.0;

  private final long consumerPid;
  private final long kafkaPid;
  private final long self = ProcessHandle.current().pid();
  private Map<String, Long> start;
  private long startNanos;

  /** {@code consumerPid} 0 when no consumer runs. */
  CpuGroups(long consumerPid) {
    this(consumerPid, 0);
  }

  /** With the Kafka broker's pid ({@code kafkaPid} 0 when none runs): its group {@value #KAFKA}. */
  CpuGroups(long consumerPid, long kafkaPid) {
    this.consumerPid = consumerPid;
    this.kafkaPid = kafkaPid;
  }

  void start() {
    start = snapshot();
    startNanos = System.nanoTime();
  }

  /** Percent of one core per group since {@link #start()}. */
  Map<String, Double> stop() {
    Map<String, Long> end = snapshot();
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    Map<String, Double> pct = new LinkedHashMap<>();
    double named = 0;
    String[] groups =
        kafkaPid > 0
            ? new String[] {CONSUMER, POSTGRES, RABBITMQ, KAFKA, BENCH}
            : new String[] {CONSUMER, POSTGRES, RABBITMQ, BENCH};
    for (String group : groups) {
      double p = percent(end, group, seconds);
      pct.put(group, p);
      named += p;
    }
    pct.put(CONSUMER_JIT, percent(end, CONSUMER_JIT, seconds));
    double machine = percent(end, MACHINE, seconds);
    pct.put(OTHERS, Math.max(0, machine - named));
    pct.put(MACHINE, machine);
    return pct;
  }

  static int cores() {
    return Runtime.getRuntime().availableProcessors();
  }

  private double percent(Map<String, Long> end, String group, double seconds) {
    long ticks = end.getOrDefault(group, 0L) - start.getOrDefault(group, 0L);
    return 100.0 * ticks / TICKS_PER_SECOND / seconds;
  }

  private Map<String, Long> snapshot() {
    Map<String, Long> ticks = new LinkedHashMap<>();
    ticks.put(MACHINE, machineBusyTicks());
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      procs
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .forEach(p -> account(ticks, p));
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc", e);
    }
    return ticks;
  }

  /**
   * Adds one process: utime + stime, plus the time of reaped children for PostgreSQL (the
   * postmaster reaps backends that exit, pgbench's among them) and for this JVM (it reaps pgbench).
   */
  private void account(Map<String, Long> ticks, Path proc) {
    String stat;
    try {
      stat = Files.readString(proc.resolve("stat"));
    } catch (IOException e) {
      return; // exited meanwhile
    }
    long pid = Long.parseLong(proc.getFileName().toString());
    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    // after "pid (comm) ": f[0] is state (field 3), so field n is f[n - 3]
    long own = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    long children = Long.parseLong(f[13]) + Long.parseLong(f[14]);
    String group = null;
    if (pid == consumerPid) {
      group = CONSUMER;
      ticks.merge(CONSUMER_JIT, compilerTicks(proc), Long::sum);
    } else if (pid == self || comm.equals("pgbench")) {
      group = BENCH;
      own += pid == self ? children : 0;
    } else if (comm.equals("postgres")) {
      group = POSTGRES;
      own += children;
    } else if (RABBIT_COMMS.contains(comm)) {
      group = RABBITMQ;
    } else if (pid == kafkaPid) {
      group = KAFKA;
    }
    if (group != null) {
      ticks.merge(group, own, Long::sum);
    }
  }

  /** Ticks of the JIT compiler threads ("C1 CompilerThre", "C2 CompilerThre") of a JVM. */
  private static long compilerTicks(Path proc) {
    long sum = 0;
    try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        String stat = Files.readString(task.resolve("stat"));
        String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (comm.contains("CompilerThre")) {
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
      }
    } catch (IOException e) {
      return sum; // a thread ended meanwhile: close enough for a breakdown
    }
    return sum;
  }

  /** Busy ticks of all cores: user, nice, system, irq, softirq, steal (idle and iowait aside). */
  private static long machineBusyTicks() {
    try {
      String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      return Long.parseLong(f[1])
          + Long.parseLong(f[2])
          + Long.parseLong(f[3])
          + Long.parseLong(f[6])
          + Long.parseLong(f[7])
          + Long.parseLong(f[8]);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read /proc/stat", e);
    }
  }
}
