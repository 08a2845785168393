package dev.onceonly.sandbox.fault;

import dev.onceonly.sandbox.config.SandboxConfig;
import dev.onceonly.sandbox.provider.Api;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The faults in force: set from configuration at start (a bad {@code sandbox.faults.*} value fails
 * the start), switched at run time.
 */
@Startup
@Singleton
public class FaultSwitch {

  private final AtomicReference<FaultPolicy> policy;

  public FaultSwitch(SandboxConfig config) {
    this.policy = new AtomicReference<>(new FaultPolicy(fromConfig(config.faults())));
  }

  public FaultPolicy current() {
    return policy.get();
  }

  public FaultDecision decide(Api api, String key, int callNumber) {
    return policy.get().decide(api, key, callNumber);
  }

  /**
   * @throws IllegalArgumentException if the settings cannot be used; the old ones stay in force
   */
  public FaultPolicy replace(FaultSettings settings) {
    FaultPolicy next = new FaultPolicy(settings);
    policy.set(next);
    return next;
  }

  /** Switches every fault off. */
  public FaultPolicy clear() {
    return replace(FaultSettings.NONE);
  }

  static FaultSettings fromConfig(SandboxConfig.Faults faults) {
    return new FaultSettings(
        faults.seed().isPresent() ? faults.seed().getAsLong() : null,
        rates(faults),
        rates(faults.receipts()),
        rates(faults.payouts()),
        rates(faults.webhooks()),
        Map.of());
  }

  private static FaultRates rates(SandboxConfig.Rates r) {
    return new FaultRates(
        r.errorRate().isPresent() ? r.errorRate().getAsDouble() : null,
        r.latencyMs().isPresent() ? r.latencyMs().getAsLong() : null,
        r.hangRate().isPresent() ? r.hangRate().getAsDouble() : null,
        r.hangMs().isPresent() ? r.hangMs().getAsLong() : null,
        r.throttleRate().isPresent() ? r.throttleRate().getAsDouble() : null,
        r.retryAfterSeconds().isPresent() ? r.retryAfterSeconds().getAsInt() : null,
        r.effectThenFailRate().isPresent() ? r.effectThenFailRate().getAsDouble() : null,
        r.effectThenFailMode().orElse(null),
        r.hangMode().orElse(null),
        r.errorStatus().isPresent() ? r.errorStatus().getAsInt() : null);
  }
}
