package dev.onceonly.relay.dispatch;

/** A one-slot signal: {@link #signal()} ends the current or the next {@link #await} at once. */
final class Wakeup {

  private boolean signalled;

  synchronized void signal() {
    signalled = true;
    notifyAll();
  }

  /** Waits up to {@code millis} unless signalled; clears the signal either way. */
  synchronized void await(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000L;
    long remaining = millis;
    while (!signalled && remaining > 0) {
      wait(remaining);
      remaining = (deadline - System.nanoTime()) / 1_000_000L;
    }
    signalled = false;
  }
}
