package dev.onceonly.sandbox.provider;

import dev.onceonly.sandbox.idempotency.IdempotencyStore;
import dev.onceonly.sandbox.stats.ApiStats;
import dev.onceonly.sandbox.stats.CallLog;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Everything the sandbox remembers about one API: its keys and effects, its per-key call log and
 * its counters. Ids keep counting across resets so that an id is never handed out twice.
 */
public final class ApiState {

  private final Api api;
  private final IdempotencyStore store = new IdempotencyStore();
  private final CallLog calls = new CallLog();
  private final ApiStats stats = new ApiStats();
  private final AtomicLong effectSequence = new AtomicLong();

  ApiState(Api api) {
    this.api = api;
  }

  public Api api() {
    return api;
  }

  public IdempotencyStore store() {
    return store;
  }

  public CallLog calls() {
    return calls;
  }

  public ApiStats stats() {
    return stats;
  }

  long nextEffectNumber() {
    return effectSequence.incrementAndGet();
  }

  void clear() {
    store.clear();
    calls.clear();
    stats.clear();
  }
}
