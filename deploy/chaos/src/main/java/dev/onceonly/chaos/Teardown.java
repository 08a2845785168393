package dev.onceonly.chaos;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What the suite started, stopped in reverse order when the suite ends, and also when it is
 * interrupted (Ctrl-C, SIGTERM): without it an interrupted run left its private PostgreSQL,
 * RabbitMQ node and five services running on the suite's ports, and the next run could not start.
 * Each resource is closed once, whichever comes first.
 */
final class Teardown implements AutoCloseable {

  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private final Thread hook = new Thread(this::closeAll, "onceonly-chaos-teardown");

  Teardown() {
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Registers a resource just started; returns it. */
  synchronized <T extends AutoCloseable> T add(T resource) {
    started.push(resource);
    return resource;
  }

  /** The hook the JVM runs when it is stopped (tests run it directly). */
  Thread hook() {
    return hook;
  }

  @Override
  public void close() {
    closeAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run: nothing is left to close
    }
  }

  private synchronized void closeAll() {
    boolean interrupted = false;
    while (!started.isEmpty()) {
      AutoCloseable resource = started.pop();
      try {
        resource.close();
      } catch (InterruptedException e) {
        interrupted = true; // after the others: each of them waits for its process to stop
        System.out.println("  interrupted while stopping " + resource);
      } catch (Exception e) {
        System.out.println("  could not stop " + resource + ": " + e);
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
