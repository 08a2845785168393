package dev.onceonly.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One chaos scenario: a stream flows while {@link #inject} injects the fault; then the suite waits
 * for the pipeline to settle and judges the invariants. A scenario overrides the hooks it needs;
 * {@link #execute} is the whole run and may be replaced (scenario 7 runs two streams).
 */
abstract class Scenario {

  /** One row of the table, with the broken invariants and notes behind it. */
  record Result(
      int number,
      String name,
      long events,
      int faults,
      long lost,
      long doubled,
      Duration recovery,
      boolean passed,
      List<String> problems,
      List<String> notes) {}

  /** A stream that was run: what was sent, when the fault ended, when it had settled, the state. */
  record Run(
      Traffic.Sent sent,
      long faultEndNanos,
      Duration recovery,
      Invariants.Verdict verdict,
      Observation observation) {}

  final int number;
  final String name;
  final List<String> notes = new ArrayList<>();

  Scenario(int number, String name) {
    this.number = number;
    this.name = name;
  }

  /** The stream: by default the mode's size, seeded per scenario. */
  Traffic.Spec spec(Lab lab) {
    return new Traffic.Spec(lab.mode.customers(), lab.mode.orders(), 0, lab.random.nextLong());
  }

  /** Before the stream starts (e.g. provider faults on). */
  void before(Lab lab) throws Exception {}

  /** The fault, on a thread of its own while the stream is published; ends by {@code until}. */
  abstract void inject(Lab lab, long untilNanos) throws Exception;

  /** After the fault window, before waiting for the pipeline to settle (e.g. faults off). */
  void after(Lab lab) throws Exception {}

  /** Between the stream's phase 1 (orders credited) and its redemptions. */
  void betweenPhases(Lab lab) throws Exception {}

  /** Checks of this scenario beyond the invariants; each broken one in words. */
  List<String> checks(Lab lab, Run run) throws Exception {
    return List.of();
  }

  /** How long the stream's middle is spread: most of the fault window. */
  Duration spread(Lab lab) {
    return lab.mode.window().multipliedBy(3).dividedBy(4);
  }

  Result execute(Lab lab) throws Exception {
    Run run = stream(lab, spec(lab));
    List<String> problems = new ArrayList<>(run.verdict().problems());
    problems.addAll(checks(lab, run));
    return new Result(
        number,
        name,
        run.sent().published(),
        lab.faults.get(),
        run.verdict().lost(),
        run.verdict().doubled(),
        run.recovery(),
        problems.isEmpty() && run.recovery() != null,
        problems,
        List.copyOf(notes));
  }

  /**
   * Resets, runs one stream with the fault, waits until the invariants hold or the bound passes.
   */
  Run stream(Lab lab, Traffic.Spec spec) throws Exception {
    lab.reset();
    before(lab);
    long until = System.nanoTime() + lab.mode.window().toNanos();
    ExecutorService faultThread = Executors.newSingleThreadExecutor();
    Traffic.Sent sent;
    try {
      Future<?> fault =
          faultThread.submit(
              () -> {
                inject(lab, until);
                return null;
              });
      sent =
          lab.traffic()
              .run(
                  spec,
                  spread(lab),
                  lab.mode.drain().plus(lab.mode.window()),
                  () -> {
                    try {
                      betweenPhases(lab);
                    } catch (Exception e) {
                      throw new IllegalStateException(e);
                    }
                  });
      fault.get(lab.mode.window().toSeconds() + 600, TimeUnit.SECONDS);
    } finally {
      faultThread.shutdownNow();
    }
    after(lab);
    long faultEnd = System.nanoTime();
    return settle(lab, sent, faultEnd);
  }

  /** Polls the invariants until they hold (the recovery time) or the mode's drain bound passes. */
  static Run settle(Lab lab, Traffic.Sent sent, long faultEnd) throws Exception {
    return settle(lab, sent, faultEnd, () -> false);
  }

  /**
   * As {@link #settle(Lab, Traffic.Sent, long)}, also ending, as settled, when {@code settledShort}
   * says nothing more will change (a stream that lost messages, whose invariants never hold).
   */
  static Run settle(Lab lab, Traffic.Sent sent, long faultEnd, BooleanSupplier settledShort)
      throws Exception {
    long deadline = faultEnd + lab.mode.drain().toNanos();
    Observation o = null;
    Invariants.Verdict verdict = null;
    while (true) {
      try {
        o = lab.observe();
        verdict = Invariants.judge(sent, o);
      } catch (Exception e) {
        verdict = new Invariants.Verdict(0, 0, List.of("could not observe: " + e.getMessage()));
      }
      long now = System.nanoTime();
      if (verdict.passed() || settledShort.getAsBoolean()) {
        return new Run(sent, faultEnd, Duration.ofNanos(now - faultEnd), verdict, o);
      }
      if (now > deadline) {
        return new Run(sent, faultEnd, null, verdict, o);
      }
      Thread.sleep(1_000);
    }
  }

  /** Sleeps until the given moment or {@code untilNanos}, whichever is first; false if past it. */
  static boolean sleepUntil(long wakeNanos, long untilNanos) throws InterruptedException {
    long target = Math.min(wakeNanos, untilNanos);
    long ms = (target - System.nanoTime()) / 1_000_000;
    if (ms > 0) {
      Thread.sleep(ms);
    }
    return System.nanoTime() < untilNanos;
  }
}
