package dev.onceonly.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The chaos suite: a private PostgreSQL and RabbitMQ, the five service processes, then each
 * scenario chosen, and the table. Exits 0 only if every verdict passes.
 *
 * <p>Options: {@code [--full] [--only=1,2,...] [--seed=N] [--root=<repo>] [--port-base=28000]}
 */
public final class ChaosSuite {

  /**
   * The first port of the suite (services + 0..14, PostgreSQL + 432, RabbitMQ + 672/673): below
   * Linux's ephemeral range (32768-60999), so that no outgoing connection of another process on the
   * machine can hold one of them when a service binds it (58000 did, once, in a build).
   */
  static final int DEFAULT_PORT_BASE = 28000;

  /** Every scenario, by number. */
  static final List<Supplier<Scenario>> SCENARIOS =
      List.of(
          ConsumerKills::new,
          RelayKills::new,
          DatabaseFaults::new,
          BrokerFaults::new,
          ProviderFaults::new,
          XminHold::new,
          PoisonFlood::new,
          HotCustomer::new,
          RollingRestart::new,
          BulkReplay::new);

  /**
   * Scenarios with engines of their own ({@link StandaloneScenario}), by number, after the shared
   * ones.
   */
  static final List<Supplier<StandaloneScenario>> STANDALONE =
      List.of(
          RabbitNodeKill::new,
          RabbitPartition::new,
          Failover::synchronous,
          Failover::asynchronous,
          () -> new OnKafka(new ConsumerKills(15, "Kafka: kill -9 a consumer every 10±5 s")),
          () -> new OnKafka(new RebalanceStorm()),
          () -> new OnKafka(new KafkaOutage()));

  private ChaosSuite() {}

  public static void main(String[] args) throws Exception {
    Mode mode = Mode.TRIMMED;
    Set<Integer> only = new TreeSet<>();
    long seed = ThreadLocalRandom.current().nextLong(1, 1L << 40);
    Path root = Path.of("").toAbsolutePath();
    int portBase = DEFAULT_PORT_BASE;
    for (String arg : args) {
      if (arg.equals("--full")) {
        mode = Mode.FULL;
      } else if (arg.startsWith("--only=")) {
        for (String n : arg.substring(7).split(",")) {
          only.add(Integer.parseInt(n.trim()));
        }
      } else if (arg.startsWith("--seed=")) {
        seed = Long.parseLong(arg.substring(7));
      } else if (arg.startsWith("--root=")) {
        root = Path.of(arg.substring(7)).toAbsolutePath();
      } else if (arg.startsWith("--port-base=")) {
        portBase = Integer.parseInt(arg.substring(12));
      } else {
        throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    List<Scenario.Result> results = run(root, mode, only, seed, portBase);
    boolean passed = !results.isEmpty() && results.stream().allMatch(Scenario.Result::passed);
    System.exit(passed ? 0 : 1);
  }

  /** Which of PostgreSQL and RabbitMQ is not installed here, or null if both are. */
  static String missingBinaries() {
    if (!PrivatePostgres.installed()) {
      return "PostgreSQL 15 binaries not found in "
          + PrivatePostgres.binaries()
          + " (CHAOS_PG_BIN)";
    }
    if (!PrivateRabbit.installed()) {
      return "RabbitMQ (rabbitmq-server, rabbitmqctl) not found in " + PrivateRabbit.binaries();
    }
    return null;
  }

  /** Why the suite cannot run here, or null if it can (binaries and jars present). */
  static String missing(Path root) {
    String binaries = missingBinaries();
    if (binaries != null) {
      return binaries;
    }
    for (Path jar : Fleet.jars(root)) {
      if (!Files.exists(jar)) {
        return jar + " is missing: build the services first";
      }
    }
    return null;
  }

  /** Runs the scenarios chosen (all if empty), prints each result and the table; the results. */
  static List<Scenario.Result> run(Path root, Mode mode, Set<Integer> only, long seed, int portBase)
      throws Exception {
    String missing = missing(root);
    if (missing != null) {
      throw new IllegalStateException(missing);
    }
    long started = System.nanoTime();
    Path runDir = root.resolve("deploy/chaos/target/chaos-run");
    System.out.printf(
        "== OnceOnly chaos suite: %s set, seed %d; logs in %s ==%n", mode.name(), seed, runDir);
    List<Scenario.Result> results = new ArrayList<>();
    List<Supplier<Scenario>> shared =
        SCENARIOS.stream().filter(s -> only.isEmpty() || only.contains(s.get().number)).toList();
    if (!shared.isEmpty()) {
      try (Teardown teardown = new Teardown()) {
        PrivatePostgres pg = teardown.add(PrivatePostgres.start(portBase + 432));
        PrivateRabbit rabbit = teardown.add(PrivateRabbit.start(portBase + 672));
        Fleet fleet = teardown.add(new Fleet(root, runDir, portBase, pg.jdbcUrl(), rabbit.nodes()));
        System.out.printf(
            "private PostgreSQL on %d, RabbitMQ node %s on %d (%d s)%n",
            portBase + 432, rabbit.node(), rabbit.port(), secondsSince(started));
        fleet.start();
        rabbit.requireDeadLetterPolicy(Lab.DEAD_LETTER_QUEUES);
        System.out.printf(
            "fleet ready: sandbox, 2 consumers, 2 relays (%d s)%n", secondsSince(started));
        Lab lab = new Lab(pg, rabbit, fleet, mode, seed);
        for (Supplier<Scenario> make : shared) {
          Scenario scenario = make.get();
          results.add(
              report(
                  scenario.number,
                  scenario.name,
                  () -> scenario.execute(lab),
                  () -> lab.faults.get(),
                  scenario.notes));
        }
      }
    }
    for (Supplier<StandaloneScenario> make : STANDALONE) {
      StandaloneScenario scenario = make.get();
      boolean chosen =
          only.isEmpty()
              ? mode != Mode.TRIMMED || scenario.inTrimmedSet()
              : only.contains(scenario.number());
      if (!chosen) {
        continue;
      }
      try (Teardown teardown = new Teardown()) {
        StandaloneScenario.Stage stage =
            new StandaloneScenario.Stage(root, runDir, mode, seed, portBase, teardown);
        results.add(
            report(
                scenario.number(), scenario.name(), () -> scenario.run(stage), () -> 0, List.of()));
      }
    }
    String table = Table.render(results);
    System.out.printf(
        "%n%s set, seed %d, %d s in all%n%n%s", mode.name(), seed, secondsSince(started), table);
    Files.createDirectories(runDir);
    Files.writeString(runDir.resolve("table.md"), table);
    return results;
  }

  /** Something that runs a scenario and returns its row. */
  private interface Execution {
    Scenario.Result run() throws Exception;
  }

  /**
   * Runs one scenario, prints its notes, problems and verdict; a scenario that throws is a failed
   * row that says why.
   */
  private static Scenario.Result report(
      int number, String name, Execution execution, IntSupplier faults, List<String> notes) {
    System.out.printf("%n[%d] %s%n", number, name);
    long t0 = System.nanoTime();
    Scenario.Result result;
    try {
      result = execution.run();
    } catch (Exception e) {
      e.printStackTrace(System.out);
      result =
          new Scenario.Result(
              number,
              name,
              0,
              faults.getAsInt(),
              0,
              0,
              null,
              false,
              List.of("the scenario failed to run: " + e),
              List.copyOf(notes));
    }
    result.notes().forEach(n -> System.out.println("  note: " + n));
    result.problems().forEach(p -> System.out.println("  ✘ " + p));
    System.out.printf("  %s in %d s%n", result.passed() ? "PASS" : "FAIL", secondsSince(t0));
    return result;
  }

  private static long secondsSince(long nanos) {
    return Duration.ofNanos(System.nanoTime() - nanos).toSeconds();
  }
}
