package dev.onceonly.relay.api;

import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.operations.OutboxQueryRepository;
import dev.onceonly.web.Params;
import dev.onceonly.web.ProblemException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.TreeSet;

/**
 * The destinations a filter may name: those configured here, and any other that rows still waiting,
 * in flight or dead name (a destination this relay does not know, or no longer does). Anything else
 * is a typo, refused rather than answered with an empty listing.
 */
@ApplicationScoped
public class KnownDestinations {

  private final Set<String> configured;
  private final OutboxQueryRepository queries;

  public KnownDestinations(Destinations destinations, OutboxQueryRepository queries) {
    this.configured = Set.copyOf(new TreeSet<>(destinations.names()));
    this.queries = queries;
  }

  /** The destinations configured here, sorted. */
  public Set<String> configured() {
    return new TreeSet<>(configured);
  }

  /**
   * The destination {@code destination} (or, if that is absent, {@code kind}, its older name)
   * names, or null for none; a 400 problem for one that is neither configured nor named by a row
   * still open, or when the two parameters disagree.
   */
  public String check(String destination, String kind) {
    String named = Params.text("destination", destination);
    String older = Params.text("kind", kind);
    if (named != null && older != null && !named.equals(older)) {
      throw ProblemException.badRequest(
          "destination '"
              + named
              + "' and kind '"
              + older
              + "' disagree: kind is the older name of destination, give one of them");
    }
    String name = named != null ? named : older;
    if (name == null || configured.contains(name) || queries.destinationHasRows(name)) {
      return name;
    }
    throw ProblemException.badRequest(
        "unknown destination '"
            + name
            + "': configured here are "
            + String.join(", ", configured())
            + ", and no pending, in-flight or dead row names it");
  }
}
