package dev.onceonly.relay.destination;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The one thread a broker destination publishes on: connecting to a broker, or waiting for a
 * topic's metadata, blocks, and must never hold up the relay's loop. A daemon, named after the
 * destination so that a thread dump says whose it is.
 */
public final class PublishThread {

  private PublishThread() {}

  /** A single-thread executor whose thread is called {@code outbox-<type>-<destination>}. */
  public static ExecutorService of(String type, String destination) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread thread = new Thread(r, "outbox-" + type + "-" + destination);
          thread.setDaemon(true);
          return thread;
        });
  }
}
