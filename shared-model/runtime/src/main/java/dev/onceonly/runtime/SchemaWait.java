package dev.onceonly.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Waits for a database schema before work that needs it starts, instead of crash-looping: on
 * Kubernetes the migrations Job and the services' pods start together. A check lists what the
 * schema still lacks (empty when complete; a database that cannot be reached counts as lacking it);
 * it runs every {@code interval} on a daemon thread of its own until it comes back empty, or until
 * {@code limit} has passed, when the service is to stop. What each service does at each step (open
 * its consumers, start its poller, log, exit) is its {@link Observer}'s.
 */
public final class SchemaWait {

  /** What happens as the wait goes on; called on the waiting thread. */
  public interface Observer {
    /** The first check found the schema incomplete; the wait goes on. */
    void missing(List<String> problems);

    /** The schema is complete; the wait is over. */
    void complete();

    /** The schema is still incomplete after the limit; the wait is over. */
    void gaveUp(List<String> problems);
  }

  private final String threadName;
  private final Supplier<List<String>> check;
  private final Duration limit;
  private final Duration interval;
  private volatile List<String> problems = List.of("not checked yet");
  private volatile boolean waiting;
  private ScheduledExecutorService timer;

  /**
   * @param check what the schema lacks, empty when it is complete; may throw when the database
   *     cannot be reached
   */
  public SchemaWait(
      String threadName, Supplier<List<String>> check, Duration limit, Duration interval) {
    this.threadName = threadName;
    this.check = check;
    this.limit = limit;
    this.interval = interval;
  }

  /** Checks once, on this thread: whether the schema is complete now. */
  public boolean completeNow() {
    problems = look();
    return problems.isEmpty();
  }

  /**
   * Starts waiting: the first check after {@code firstCheck}, then one every interval, until the
   * schema is complete or the limit has passed.
   */
  public synchronized void start(Duration firstCheck, Observer observer) {
    Instant deadline = Instant.now().plus(limit);
    waiting = true;
    timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, threadName);
              thread.setDaemon(true);
              return thread;
            });
    boolean[] told = {false};
    timer.scheduleWithFixedDelay(
        () -> {
          if (completeNow()) {
            observer.complete();
            finish();
          } else if (Instant.now().isAfter(deadline)) {
            finish();
            observer.gaveUp(problems);
          } else if (!told[0]) {
            told[0] = true;
            observer.missing(problems);
          }
        },
        firstCheck.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  /** What the schema lacked at the last check; empty once it is complete. */
  public List<String> problems() {
    return problems;
  }

  /** Whether the wait is going on. */
  public boolean waiting() {
    return waiting;
  }

  /** How long the wait lasts at most. */
  public Duration limit() {
    return limit;
  }

  /** Stops waiting (a shutdown while the schema is still missing); nothing more is called. */
  public synchronized void stop() {
    if (timer != null) {
      timer.shutdownNow();
    }
    waiting = false;
  }

  private synchronized void finish() {
    timer.shutdown();
    waiting = false;
  }

  private List<String> look() {
    try {
      return List.copyOf(check.get());
    } catch (RuntimeException e) {
      return List.of("database not reachable: " + e.getMessage());
    }
  }
}
