package dev.onceonly.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * CPU time the lab's processes used, read from Linux's {@code /proc} while a scenario runs: each
 * group (the consumers, the broker, the database, the suite) is a few root processes and every
 * process below them (PostgreSQL's backends), and {@link #MACHINE} is what all CPUs of the machine
 * spent busy, whoever spent it. A sample holds each group's CPU seconds since the meter started;
 * scenario 7 reads from them where the CPU of its clean and poisoned stretches went ({@link
 * StretchCpu}).
 *
 * <p>A process that ends takes its time with it from {@code /proc}; the meter adds up each
 * process's own increments instead, so a group's total never goes back. Where there is no {@code
 * /proc} (not Linux), {@link #start} gives nothing and the scenario says so.
 */
final class ProcessCpu {

  /** Busy time of every CPU of the machine (from {@code /proc/stat}), all processes and kernel. */
  static final String MACHINE = "machine";

  /** CPUs of the machine times the seconds sampled: what {@link #MACHINE} could have been. */
  static final String CAPACITY = "capacity";

  private static final Path PROC = Path.of("/proc");

  /** How often the process tree is read again, in samples (backends come and go). */
  private static final int TREE_EVERY = 10;

  /** Each group's CPU seconds since the start, at {@code epochMillis}. */
  record Sample(long epochMillis, Map<String, Double> seconds) {}

  private final Map<String, Supplier<Collection<Long>>> roots;
  private final Duration every;
  private final double ticksPerSecond;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private final Map<Long, Long> lastTicks = new HashMap<>();
  private final Map<String, Long> groupTicks = new LinkedHashMap<>();
  private Map<Long, String> members = Map.of();
  private long[] machineStart;
  private volatile boolean stopping;

  private ProcessCpu(
      Map<String, Supplier<Collection<Long>>> roots, Duration every, double ticksPerSecond) {
    this.roots = roots;
    this.every = every;
    this.ticksPerSecond = ticksPerSecond;
    this.thread = new Thread(this::loop, "chaos-cpu-meter");
    this.thread.setDaemon(true);
  }

  /**
   * Starts sampling every {@code every}; empty where there is no {@code /proc/stat}. {@code roots}
   * names each group's root processes, asked again at every read of the process tree (a service
   * restarted has a new pid).
   */
  static Optional<ProcessCpu> start(Map<String, Supplier<Collection<Long>>> roots, Duration every) {
    if (!Files.isReadable(PROC.resolve("stat"))) {
      return Optional.empty();
    }
    ProcessCpu meter = new ProcessCpu(roots, every, ticksPerSecond());
    meter.sample();
    meter.thread.start();
    return Optional.of(meter);
  }

  /** Stops sampling, takes a last sample and returns them all, oldest first. */
  List<Sample> stop() {
    stopping = true;
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      sample();
      return List.copyOf(samples);
    }
  }

  /** The samples so far, while the meter runs on. */
  synchronized List<Sample> snapshot() {
    return List.copyOf(samples);
  }

  private void loop() {
    int n = 0;
    while (!stopping) {
      try {
        Thread.sleep(every.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      synchronized (this) {
        if (++n % TREE_EVERY == 0) {
          members = Map.of();
        }
        sample();
      }
    }
  }

  private void sample() {
    if (members.isEmpty()) {
      members = members(processTree());
    }
    boolean first = machineStart == null;
    for (Map.Entry<Long, String> m : members.entrySet()) {
      long pid = m.getKey();
      Long ticks = processTicks(pid);
      if (ticks == null) {
        continue;
      }
      Long before = lastTicks.put(pid, ticks);
      // a process seen for the first time after the start (a new backend) counts from its birth
      long delta = first ? 0 : ticks - (before == null ? 0 : before);
      groupTicks.merge(m.getValue(), Math.max(0, delta), Long::sum);
    }
    long[] machine = machineTicks();
    if (first) {
      machineStart = machine;
    }
    Map<String, Double> seconds = new LinkedHashMap<>();
    for (String group : roots.keySet()) {
      seconds.put(group, groupTicks.getOrDefault(group, 0L) / ticksPerSecond);
    }
    seconds.put(MACHINE, (machine[0] - machineStart[0]) / ticksPerSecond);
    seconds.put(CAPACITY, (machine[1] - machineStart[1]) / ticksPerSecond);
    samples.add(new Sample(System.currentTimeMillis(), Map.copyOf(seconds)));
  }

  /** Every pid under one of the groups' roots (the roots included), with its group. */
  private Map<Long, String> members(Map<Long, List<Long>> children) {
    Map<Long, String> found = new HashMap<>();
    for (Map.Entry<String, Supplier<Collection<Long>>> group : roots.entrySet()) {
      List<Long> todo = new ArrayList<>(group.getValue().get());
      Set<Long> seen = new HashSet<>();
      while (!todo.isEmpty()) {
        long pid = todo.remove(todo.size() - 1);
        if (seen.add(pid)) {
          found.putIfAbsent(pid, group.getKey());
          todo.addAll(children.getOrDefault(pid, List.of()));
        }
      }
    }
    return found;
  }

  /** Each pid's children, from every {@code /proc/<pid>/stat}. */
  private static Map<Long, List<Long>> processTree() {
    Map<Long, List<Long>> children = new HashMap<>();
    try (Stream<Path> entries = Files.list(PROC)) {
      for (Path entry : entries.toList()) {
        String name = entry.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        String[] fields = statFields(Long.parseLong(name));
        if (fields != null) {
          children
              .computeIfAbsent(Long.parseLong(fields[1]), k -> new ArrayList<>())
              .add(Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      // a process tree that cannot be read leaves the groups to their roots
    }
    return children;
  }

  /** User and system ticks of one process and all its threads; null if it is gone. */
  private static Long processTicks(long pid) {
    String[] fields = statFields(pid);
    return fields == null ? null : Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /**
   * The fields of {@code /proc/<pid>/stat} after the command name (which may hold spaces): index 0
   * is the state, 1 the parent pid, 11 and 12 user and system ticks. Null if the process is gone.
   */
  private static String[] statFields(long pid) {
    try {
      String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Busy ticks of all CPUs and all ticks (busy, idle and waiting for I/O), from /proc/stat. */
  private static long[] machineTicks() {
    try (Stream<String> lines = Files.lines(PROC.resolve("stat"))) {
      String[] f = lines.findFirst().orElseThrow().trim().split("\\s+");
      long busy = 0;
      long all = 0;
      // cpu user nice system idle iowait irq softirq steal (guest time is inside user already)
      for (int i = 1; i <= 8 && i < f.length; i++) {
        long v = Long.parseLong(f[i]);
        all += v;
        if (i != 4 && i != 5) {
          busy += v;
        }
      }
      return new long[] {busy, all};
    } catch (IOException | RuntimeException e) {
      return new long[] {0, 0};
    }
  }

  /** The pid on the first line of a pid file; none if it cannot be read. */
  static List<Long> pidFile(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines
          .findFirst()
          .map(String::strip)
          .map(Long::parseLong)
          .map(List::of)
          .orElse(List.of());
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /** The kernel's clock ticks per second (USER_HZ), 100 where {@code getconf} cannot say. */
  private static double ticksPerSecond() {
    try {
      return Double.parseDouble(Shell.run(Map.of(), null, 10, "getconf", "CLK_TCK").strip());
    } catch (Exception e) {
      return 100;
    }
  }
}
