package dev.onceonly.chaos;

import dev.onceonly.model.EventCodec;
import dev.onceonly.model.InvalidEventException;
import dev.onceonly.pipeline.Outgoing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Scenario 7's stream in stretches that take turns, clean and poisoned, so that both kinds are
 * timed on the same machine a second apart. A poisoned stretch has invalid messages shuffled in, a
 * tenth of all its messages.
 *
 * <p>The stretches must cost the consumers the same but for the poison. Each order's copies (and
 * each profile version's) go together into one stretch, the keys in a random order, so every
 * stretch holds the same mix of first claims, which credit points and write outbox rows, and
 * duplicates, which only find the claim there. (Cut from the shuffled stream as it came, the first
 * stretches held most first claims and the last ones mostly copies of orders already claimed: in
 * one run 913 first claims in the first timed stretch and 271 in the last, and the poisoned
 * stretches, earlier on average, held 35 % more than the clean ones. With the invalid messages
 * acked and dropped instead of dead-lettered, that layout still read 0.84.)
 *
 * <p>The timed stretches follow the pattern poisoned, clean, clean, poisoned, poisoned, clean,
 * clean, poisoned (ABBA), so that both kinds sit at the same place on average, and every other run
 * is mirrored (clean, poisoned, poisoned, clean, ...), so that over a pair of runs every place in
 * the stream is poisoned once and clean once: whatever makes one part of a run dearer than another
 * weighs on both kinds alike, not only what changes in a straight line. (Stretches of one run went
 * from 4.5 s to 1.0 s for the same work as the queues emptied.)
 *
 * <p>The queues are first in, first out, so the consumers go through the stretches in turn. A
 * stretch ends when the claims of its messages are done (the 99th percentile of their claim times,
 * so that one message requeued once does not move the boundary); it lasts from the end of the
 * stretch before it. The first stretch (the fleet getting going) and the last (the tail of the
 * queues) are not timed.
 */
final class PoisonBlocks {

  /** The share of a stretch's claim times after which it counts as done. */
  static final double DONE = 0.99;

  /**
   * One stretch: poisoned or clean, how many messages it publishes, how many of them are healthy
   * (copies count: each costs the consumers a delivery) and how many are the extra invalid ones,
   * and the keys of its messages (the ones whose claims tell when it was done).
   */
  record Block(boolean poisoned, int size, int healthy, int invalid, Set<String> keys) {}

  /** The messages to publish, in order, and the stretches they make. */
  record Layout(List<Outgoing> messages, List<Block> blocks) {}

  /** Healthy messages and the time the consumers took for them, per kind. */
  record Rates(long cleanHealthy, Duration clean, long poisonedHealthy, Duration poisoned) {

    double cleanRate() {
      return rate(cleanHealthy, clean);
    }

    double poisonedRate() {
      return rate(poisonedHealthy, poisoned);
    }

    double ratio() {
      return poisonedRate() / cleanRate();
    }

    Rates plus(Rates other) {
      return new Rates(
          cleanHealthy + other.cleanHealthy,
          clean.plus(other.clean),
          poisonedHealthy + other.poisonedHealthy,
          poisoned.plus(other.poisoned));
    }

    static final Rates NONE = new Rates(0, Duration.ZERO, 0, Duration.ZERO);

    private static double rate(long messages, Duration time) {
      return messages / (time.toNanos() / 1e9);
    }
  }

  private PoisonBlocks() {}

  /**
   * Whether the stretch at {@code index} is poisoned: poisoned, poisoned, clean, clean, poisoned,
   * ..., so that the timed ones (all but the first and last) go poisoned, clean, clean, poisoned;
   * {@code mirrored}, the other way round.
   */
  static boolean poisoned(int index, boolean mirrored) {
    return (index / 2 % 2 == 0) != mirrored;
  }

  /**
   * Refuses a count of stretches whose timed ones (all but the first and last) are not a whole
   * number of poisoned, clean, clean, poisoned: only then do both kinds sit at the same place on
   * average.
   */
  static void requireBalanced(int count) {
    if (count < 6 || (count - 2) % 4 != 0) {
      throw new IllegalArgumentException(
          "stretches: 2 untimed and a multiple of 4 timed (6, 10, 14, ...), got " + count);
    }
  }

  /**
   * Cuts {@code stream} (shuffled, in the order it is to be published) into {@code count} stretches
   * of about the same number of messages, every copy of a key in the same one, and shuffles {@code
   * invalid} messages into the poisoned ones, as many as make {@code share} of each poisoned
   * stretch. Messages of the stream without a key (the plan's own poison) go into the first
   * stretch, which is not timed. Keys already published before the stream ({@code earlier}) belong
   * to no stretch: their claims came before it.
   */
  static Layout layout(
      List<Outgoing> stream,
      Collection<String> earlier,
      int count,
      boolean mirrored,
      double share,
      IntFunction<List<Outgoing>> invalid,
      Random random) {
    requireBalanced(count);
    if (share <= 0 || share >= 1) {
      throw new IllegalArgumentException("share must be between 0 and 1, was " + share);
    }
    List<List<Outgoing>> parts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      parts.add(new ArrayList<>());
    }
    Map<String, List<Outgoing>> copies = new LinkedHashMap<>();
    for (Outgoing message : stream) {
      String key = key(message);
      if (key == null) {
        parts.get(0).add(message);
      } else {
        copies.computeIfAbsent(key, k -> new ArrayList<>()).add(message);
      }
    }
    // in an order of their own: in the stream's, keys with more copies tend to come first
    List<List<Outgoing>> groups = new ArrayList<>(copies.values());
    Collections.shuffle(groups, random);
    int placed = parts.get(0).size();
    for (List<Outgoing> same : groups) {
      int i = (int) Math.min(count - 1, (long) placed * count / stream.size());
      parts.get(i).addAll(same);
      placed += same.size();
    }
    Set<String> before = new HashSet<>(earlier);
    List<Outgoing> messages = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<Outgoing> part = parts.get(i);
      Set<String> keys = keys(part);
      keys.removeAll(before);
      int healthy = (int) part.stream().filter(m -> key(m) != null).count();
      int bad = 0;
      boolean poisoned = poisoned(i, mirrored);
      if (poisoned) {
        List<Outgoing> poison = invalid.apply((int) Math.round(share * part.size() / (1 - share)));
        bad = poison.size();
        part.addAll(poison);
      }
      Collections.shuffle(part, random);
      messages.addAll(part);
      blocks.add(new Block(poisoned, part.size(), healthy, bad, Set.copyOf(keys)));
    }
    return new Layout(List.copyOf(messages), List.copyOf(blocks));
  }

  /** A timed stretch: its block and when it began (the one before it was done) and was done. */
  record Timed(Block block, Instant from, Instant to) {

    Duration took() {
      return Duration.between(from, to);
    }
  }

  /**
   * The timed stretches (all but the first and last), each from when the one before it was done to
   * when it was: {@code claims} is each key's latest claim time. Empty when the run cannot be
   * timed: a stretch with no claim, or one done no later than the one before it (stretches too
   * short for the messages in flight, as in the trimmed set's short streams, overlap).
   */
  static Optional<List<Timed>> timed(List<Block> blocks, Map<String, Instant> claims) {
    Optional<Instant> previous = done(blocks.get(0), claims);
    List<Timed> timed = new ArrayList<>();
    for (int i = 1; i < blocks.size() - 1; i++) {
      Block block = blocks.get(i);
      Optional<Instant> end = done(block, claims);
      if (previous.isEmpty() || end.isEmpty() || !end.get().isAfter(previous.get())) {
        return Optional.empty();
      }
      timed.add(new Timed(block, previous.get(), end.get()));
      previous = end;
    }
    return Optional.of(List.copyOf(timed));
  }

  /** Healthy throughput of each kind over the {@link #timed} stretches. */
  static Rates rates(List<Timed> timed) {
    Rates rates = Rates.NONE;
    for (Timed t : timed) {
      rates =
          rates.plus(
              t.block().poisoned()
                  ? new Rates(0, Duration.ZERO, t.block().healthy(), t.took())
                  : new Rates(t.block().healthy(), t.took(), 0, Duration.ZERO));
    }
    return rates;
  }

  /** When {@link #DONE} of a stretch's claims were made; empty if none was. */
  static Optional<Instant> done(Block block, Map<String, Instant> claims) {
    List<Instant> times = new ArrayList<>();
    for (String key : block.keys()) {
      Instant t = claims.get(key);
      if (t != null) {
        times.add(t);
      }
    }
    if (times.isEmpty()) {
      return Optional.empty();
    }
    Collections.sort(times);
    return Optional.of(times.get((int) Math.ceil(DONE * times.size()) - 1));
  }

  /** The keys of the healthy ones of {@code messages}. */
  static Set<String> keys(List<Outgoing> messages) {
    Set<String> keys = new HashSet<>();
    for (Outgoing message : messages) {
      String key = key(message);
      if (key != null) {
        keys.add(key);
      }
    }
    return keys;
  }

  /** The message key of a healthy message; null for one the consumers dead-letter. */
  private static String key(Outgoing message) {
    try {
      return EventCodec.decode(message.routingKey(), message.body()).event().messageKey();
    } catch (InvalidEventException e) {
      return null;
    }
  }
}
