package dev.onceonly.internal.catalog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The consumers of this service, found at build time: what the listeners hand messages to, what the
 * operator API accepts as a consumer's name, what the schema gate opens.
 */
public final class ConsumerCatalog {

  private final Map<String, ConsumerSpec> byName = new LinkedHashMap<>();

  public ConsumerCatalog(List<ConsumerSpec> consumers) {
    for (ConsumerSpec c : consumers) {
      if (byName.putIfAbsent(c.name(), c) != null) {
        throw new IllegalStateException("two consumers are named " + c.name());
      }
    }
  }

  /** The consumer named {@code name}; fails for a name the build did not find. */
  public ConsumerSpec get(String name) {
    ConsumerSpec spec = byName.get(name);
    if (spec == null) {
      throw new IllegalArgumentException("no OnceOnly consumer is named " + name);
    }
    return spec;
  }

  public Optional<ConsumerSpec> find(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** Every consumer, in the order the build found them (by name). */
  public List<ConsumerSpec> all() {
    return List.copyOf(byName.values());
  }

  public List<String> names() {
    return List.copyOf(Collections.unmodifiableSet(byName.keySet()));
  }
}
