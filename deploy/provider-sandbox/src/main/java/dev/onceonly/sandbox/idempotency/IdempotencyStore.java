package dev.onceonly.sandbox.idempotency;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys of one API and what they did, in memory. The claim of a key is one atomic {@code
 * putIfAbsent} of a placeholder, so two concurrent first calls can never both take the effect.
 */
public final class IdempotencyStore {

  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

  /**
   * Claims {@code key} with {@code placeholder}.
   *
   * @return null if the caller now owns the key and must take the effect, else the slot already
   *     there (in flight or completed)
   */
  public Slot claim(String key, Slot placeholder) {
    return slots.putIfAbsent(key, placeholder);
  }

  /** Completes a claimed key with its effect and answer. */
  public void complete(Slot claimed, Effect effect, StoredResponse response) {
    claimed.complete(effect, response);
  }

  /** Gives a claimed key up when its first call failed before taking effect. */
  public void release(String key, Slot claimed) {
    slots.remove(key, claimed);
  }

  public Optional<Effect> effect(String key) {
    Slot slot = slots.get(key);
    return slot == null ? Optional.empty() : Optional.ofNullable(slot.effect());
  }

  /** The oldest {@code limit} effects, in the order they were taken. */
  public List<Effect> effects(int limit) {
    return slots.values().stream()
        .map(Slot::effect)
        .filter(Objects::nonNull)
        .sorted(Comparator.comparingLong(Effect::sequence))
        .limit(limit)
        .toList();
  }

  /** Number of keys held, in flight ones included. */
  public int size() {
    return slots.size();
  }

  public void clear() {
    slots.clear();
  }
}
