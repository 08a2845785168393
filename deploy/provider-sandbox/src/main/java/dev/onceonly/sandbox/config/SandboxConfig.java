package dev.onceonly.sandbox.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Configuration of the provider sandbox. Everything here only sets the state at start: {@code PUT
 * /sandbox/faults} replaces the faults at run time and {@code DELETE /sandbox/faults} switches them
 * all off.
 */
@ConfigMapping(prefix = "sandbox")
public interface SandboxConfig {

  /** Faults injected from start ({@code sandbox.faults.*}); all off when unset. */
  Faults faults();

  /** Global fault switches, a seed, and per-API overrides. */
  interface Faults extends Rates {

    /** Seed of the fault dice so that a run can be repeated; unset means a random seed. */
    OptionalLong seed();

    /** Overrides for the receipts (e-mail) API; an unset key falls back to the global one. */
    Rates receipts();

    /** Overrides for the payouts API; an unset key falls back to the global one. */
    Rates payouts();

    /** Overrides for the webhook receiver; an unset key falls back to the global one. */
    Rates webhooks();
  }

  /** The webhook receiver ({@code POST /v1/webhooks}). */
  Webhooks webhooks();

  /** What the webhook receiver accepts. */
  interface Webhooks {

    /**
     * The signing secrets it verifies with ({@code whsec_<base64>}); a call passes when one of its
     * signatures matches one of them. The default is a sandbox secret, public on purpose.
     */
    @WithDefault("whsec_b25jZW9ubHktc2FuZGJveC13ZWJob29rLXNlY3JldCE=")
    List<String> secrets();

    /** How far {@code webhook-timestamp} may be from the sandbox's clock. */
    @WithDefault("5m")
    Duration tolerance();
  }

  /** One set of fault switches; unset means "inherit" (per API) or "off" (global). */
  interface Rates {

    /** Share (0..1) of calls answered 500 before the effect is taken. */
    OptionalDouble errorRate();

    /** Milliseconds added to every answer; a first call keeps its key in flight meanwhile. */
    OptionalLong latencyMs();

    /** Share (0..1) of calls that take effect, then are held for hang-ms before the answer. */
    OptionalDouble hangRate();

    /** How long a hung call is held, in milliseconds (default 10000). */
    OptionalLong hangMs();

    /**
     * When a hang happens: {@code after-effect} (default: the effect is taken, the answer held) or
     * {@code before-effect} (nothing is taken, the connection closed after the hold: a provider
     * that answers nothing).
     */
    Optional<String> hangMode();

    /** Status of an injected error: 500 by default, a 4xx for an answer callers treat as final. */
    OptionalInt errorStatus();

    /** Share (0..1) of calls answered 429 before the effect is taken. */
    OptionalDouble throttleRate();

    /** Value of the Retry-After header of a 429, in seconds (default 1). */
    OptionalInt retryAfterSeconds();

    /** Share (0..1) of calls that take effect and store the answer, then fail. */
    OptionalDouble effectThenFailRate();

    /** How an effect-then-fail call fails: {@code 500} (default) or {@code drop} the connection. */
    Optional<String> effectThenFailMode();
  }
}
