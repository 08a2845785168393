package dev.onceonly.sandbox.stats;

import dev.onceonly.sandbox.fault.Fault;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The counters of one API. Lock-free: the relay benchmark calls at thousands per second. */
public final class ApiStats {

  private final LongAdder rawCalls = new LongAdder();
  private final LongAdder effectiveCalls = new LongAdder();
  private final LongAdder replays = new LongAdder();
  private final LongAdder refusals = new LongAdder();
  private final ConcurrentHashMap<String, LongAdder> refusalsByStatus = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, LongAdder> injectedFaults = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, LongAdder> outcomes = new ConcurrentHashMap<>();

  public void rawCall() {
    rawCalls.increment();
  }

  public void effect() {
    effectiveCalls.increment();
  }

  public void replay() {
    replays.increment();
  }

  /** A 4xx for key misuse: 400 (no key or no JSON), 409 (in flight), 422 (other body). */
  public void refusal(int status) {
    refusals.increment();
    add(refusalsByStatus, Integer.toString(status));
  }

  public void injected(Fault fault) {
    add(injectedFaults, fault.statName());
  }

  /** An answer delayed by injected latency. */
  public void latencyInjected() {
    add(injectedFaults, "latency");
  }

  /** How a call ended, e.g. {@code created}, {@code replayed}, {@code refused-409}. */
  public void outcome(String outcome) {
    add(outcomes, outcome);
  }

  public long rawCalls() {
    return rawCalls.sum();
  }

  public long effectiveCalls() {
    return effectiveCalls.sum();
  }

  public long replays() {
    return replays.sum();
  }

  public long refusals() {
    return refusals.sum();
  }

  /** Refusals by status; 400, 409 and 422 always listed. */
  public Map<String, Long> refusalsByStatus() {
    Map<String, Long> counts = snapshot(refusalsByStatus);
    for (String status : new String[] {"400", "409", "422"}) {
      counts.putIfAbsent(status, 0L);
    }
    return counts;
  }

  /** Injected faults by type; every type always listed. */
  public Map<String, Long> injectedFaults() {
    Map<String, Long> counts = snapshot(injectedFaults);
    for (Fault fault : Fault.values()) {
      if (fault != Fault.NONE) {
        counts.putIfAbsent(fault.statName(), 0L);
      }
    }
    counts.putIfAbsent("latency", 0L);
    return counts;
  }

  public Map<String, Long> outcomes() {
    return snapshot(outcomes);
  }

  public void clear() {
    rawCalls.reset();
    effectiveCalls.reset();
    replays.reset();
    refusals.reset();
    refusalsByStatus.clear();
    injectedFaults.clear();
    outcomes.clear();
  }

  private static void add(ConcurrentHashMap<String, LongAdder> counters, String name) {
    counters.computeIfAbsent(name, n -> new LongAdder()).increment();
  }

  private static Map<String, Long> snapshot(ConcurrentHashMap<String, LongAdder> counters) {
    Map<String, Long> copy = new TreeMap<>();
    counters.forEach((name, count) -> copy.put(name, count.sum()));
    return copy;
  }
}
