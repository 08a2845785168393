package dev.onceonly.relay.destination;

import dev.onceonly.relay.lease.LeasedRow;
import java.util.concurrent.CompletableFuture;

/**
 * Where the rows of one configured destination go: the seam between the delivery loop and a
 * transport. One implementation per {@code relay.destinations."<name>".type} ({@code
 * http.HttpDestination}, ...); {@link Destinations} builds them from the configuration. An
 * implementation sends one row per call, outside any transaction, always with the row's idempotency
 * key, and never retries: the outbox does, and retries would multiply.
 */
public interface Destination extends AutoCloseable {

  /**
   * Sends one leased row with {@code traceParent} (null when none) as its W3C trace context. The
   * future always completes normally, with the classified result, whatever happened.
   */
  CompletableFuture<DeliveryResult> send(LeasedRow row, String traceParent);

  /** Where the rows go, for logs and operators: never a secret. */
  String target();

  /** Releases connections; calls still in flight may fail. */
  @Override
  void close();
}
