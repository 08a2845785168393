package dev.onceonly.relay.api;

import dev.onceonly.model.OutboxKind;
import dev.onceonly.relay.config.RelayConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/** The outbox kinds a filter may name: those of the contract and those configured here. */
@ApplicationScoped
public class KnownKinds {

  private final Set<String> kinds;

  public KnownKinds(RelayConfig config) {
    Set<String> all = new TreeSet<>(config.kinds().keySet());
    Arrays.stream(OutboxKind.values()).map(OutboxKind::value).forEach(all::add);
    this.kinds = Set.copyOf(all);
  }

  public Set<String> all() {
    return kinds;
  }
}
