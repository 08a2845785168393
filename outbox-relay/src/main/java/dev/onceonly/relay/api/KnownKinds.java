package dev.onceonly.relay.api;

import dev.onceonly.relay.destination.Destinations;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.TreeSet;

/** The destinations a filter may name: those configured here. */
@ApplicationScoped
public class KnownKinds {

  private final Set<String> kinds;

  public KnownKinds(Destinations destinations) {
    this.kinds = Set.copyOf(new TreeSet<>(destinations.names()));
  }

  public Set<String> all() {
    return kinds;
  }
}
