package dev.onceonly.sandbox.admin;

import dev.onceonly.sandbox.provider.ApiState;
import dev.onceonly.sandbox.stats.ApiStats;
import java.util.Map;

/**
 * The counters of one API as {@code GET /sandbox/stats} shows them.
 *
 * @param rawCalls every call received, whatever its answer
 * @param effectiveCalls calls that took an effect (first-time calls with a key)
 * @param replays calls answered with a stored answer
 * @param refusals 4xx answers for key misuse (400, 409, 422)
 * @param refusalsByStatus the refusals by status
 * @param injectedFaults injected faults by type
 * @param outcomes how calls ended, e.g. created, replayed, refused-409, fault-500
 * @param keys distinct keys seen
 * @param maxCallsForOneKey the most calls any one key got
 * @param keysCalledMoreThanOnce keys called at least twice
 */
public record ApiStatsView(
    long rawCalls,
    long effectiveCalls,
    long replays,
    long refusals,
    Map<String, Long> refusalsByStatus,
    Map<String, Long> injectedFaults,
    Map<String, Long> outcomes,
    int keys,
    int maxCallsForOneKey,
    long keysCalledMoreThanOnce) {

  static ApiStatsView of(ApiState state) {
    ApiStats stats = state.stats();
    return new ApiStatsView(
        stats.rawCalls(),
        stats.effectiveCalls(),
        stats.replays(),
        stats.refusals(),
        stats.refusalsByStatus(),
        stats.injectedFaults(),
        stats.outcomes(),
        state.calls().keys(),
        state.calls().maxCallsForOneKey(),
        state.calls().keysCalledMoreThanOnce());
  }
}
