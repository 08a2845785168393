package dev.onceonly.sandbox.idempotency;

import java.util.Arrays;

/**
 * What the store holds for one idempotency key: the request body, and once the first call with the
 * key has finished, its effect and answer. A slot without an answer is in flight.
 */
public final class Slot {

  private final byte[] body;
  private volatile Effect effect;
  private volatile StoredResponse response;

  /** A placeholder for a first call that is still in flight. */
  public Slot(byte[] canonicalBody) {
    this.body = canonicalBody;
  }

  public boolean inFlight() {
    return response == null;
  }

  /** Whether {@code canonicalBody} is the body this key was first used with. */
  public boolean sameBody(byte[] canonicalBody) {
    return Arrays.equals(body, canonicalBody);
  }

  /** Records the effect and the answer; from now on the key replays. */
  void complete(Effect taken, StoredResponse answer) {
    this.effect = taken;
    this.response = answer;
  }

  /** The effect, or null while in flight. */
  public Effect effect() {
    return response == null ? null : effect;
  }

  /** The stored answer, or null while in flight. */
  public StoredResponse response() {
    return response;
  }
}
