package dev.onceonly.internal.intake;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A bound on one consumer's messages in hand, for connectors whose prefetch does not bound them
 * (Kafka): {@link #enter} answers at once while fewer than the limit are in hand, else when one
 * leaves. The generated listener returns that answer to the connector, which hands over the next
 * message only then (it calls the listener for one message at a time).
 */
final class InFlight {

  private static final CompletableFuture<Void> ROOM = CompletableFuture.completedFuture(null);

  private final int limit;
  private int inHand;
  private CompletableFuture<Void> waiting;

  InFlight(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("the in-flight limit must be at least 1, got " + limit);
    }
    this.limit = limit;
  }

  /** One more in hand: completes once there is room for the next. */
  synchronized CompletionStage<Void> enter() {
    inHand++;
    if (inHand < limit) {
      return ROOM;
    }
    waiting = new CompletableFuture<>();
    return waiting;
  }

  /** One settled: the connector may hand over the next if it waited for room. */
  void leave() {
    CompletableFuture<Void> room = null;
    synchronized (this) {
      inHand--;
      if (waiting != null && inHand < limit) {
        room = waiting;
        waiting = null;
      }
    }
    if (room != null) {
      room.complete(null);
    }
  }

  synchronized int inHand() {
    return inHand;
  }
}
