package dev.onceonly.internal.messaging;

import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.config.OnceOnlyConfig;
import io.opentelemetry.api.trace.Span;
import io.quarkus.scheduler.Scheduled;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * The WARN lines about invalid messages: at most one per consumer per interval ({@code
 * INVALID_LOG_INTERVAL}, 10 s; 0 writes one line per message). The first invalid message of an
 * interval is logged with its reason; the others are counted, logged at DEBUG, and summed up in one
 * line when the interval is over. Nothing is lost by it: every invalid message is in its consumer's
 * dead-letter queue with its reason in headers, and counted by {@code
 * onceonly_consumer_messages_total{outcome="dead_lettered"}}. (One line per message made the
 * consumers' logs 12 MB per run of the chaos suite's poison flood, and writing it cost 25 to 35 µs
 * of the 150 to 200 µs of CPU an invalid message took.)
 */
@Singleton
public class InvalidMessageLog {

  private static final Logger LOG = Logger.getLogger(InvalidMessageLog.class);

  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final Consumer<String> warn;
  private final Map<String, Window> windows = new ConcurrentHashMap<>();

  @Inject
  public InvalidMessageLog(OnceOnlyConfig config, ConsumerCatalog catalog) {
    this(
        config.deadLetters().invalidLogInterval(),
        System::nanoTime,
        LOG::warn,
        catalog.all().stream().map(ConsumerSpec::name).toList());
  }

  /** {@code warn} receives each WARN line (tests); {@code nanoTime} is the clock. */
  InvalidMessageLog(
      Duration interval, LongSupplier nanoTime, Consumer<String> warn, List<String> consumers) {
    if (interval.isNegative()) {
      throw new IllegalArgumentException(
          "quarkus.onceonly.dead-letters.invalid-log-interval must not be negative, got "
              + interval);
    }
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
    this.warn = warn;
    for (String consumer : consumers) {
      windows.put(consumer, new Window());
    }
  }

  /** An invalid message on {@code consumer}, about to be dead-lettered for {@code reason}. */
  public void invalid(ConsumerSpec consumer, String subject, String reason, Span span) {
    Window window = windows.computeIfAbsent(consumer.name(), name -> new Window());
    window.deadLetterQueue = consumer.deadLetterQueue();
    long earlier;
    synchronized (window) {
      long now = nanoTime.getAsLong();
      if (window.logged && now - window.since < intervalNanos) {
        window.unlogged++;
        earlier = -1;
      } else {
        earlier = window.unlogged;
        window.logged = true;
        window.since = now;
        window.unlogged = 0;
      }
    }
    if (earlier < 0 && !LOG.isDebugEnabled()) {
      return;
    }
    String line =
        String.format(
            "dead-lettering invalid message on %s (%s %s): %s",
            consumer.name(), consumer.kafka() ? "topic" : "routing key", subject, reason);
    try (TraceLogging.LogScope mdc = MessageTracing.logging(span)) {
      if (earlier < 0) {
        LOG.debug(line);
      } else {
        warn.accept(earlier == 0 ? line : line + "; " + more(consumer.name(), window, earlier));
      }
    }
  }

  /** Sums up the intervals that are over: how many invalid messages were not logged one by one. */
  @Scheduled(
      every = "1s",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
      skipExecutionIf = Scheduled.ApplicationNotRunning.class)
  void flush() {
    for (Map.Entry<String, Window> entry : windows.entrySet()) {
      String consumer = entry.getKey();
      Window window = entry.getValue();
      long unlogged;
      synchronized (window) {
        long now = nanoTime.getAsLong();
        if (window.unlogged == 0 || now - window.since < intervalNanos) {
          continue;
        }
        unlogged = window.unlogged;
        window.unlogged = 0;
        window.since = now;
      }
      warn.accept(more(consumer, window, unlogged));
    }
  }

  private String more(String consumer, Window window, long count) {
    return String.format(
        "%d more invalid message%s on %s dead-lettered since the last such line, each with its"
            + " reason in %s",
        count, count == 1 ? "" : "s", consumer, window.deadLetterQueue);
  }

  /** One consumer's current interval. */
  private static final class Window {
    volatile String deadLetterQueue = "its dead-letter queue";
    boolean logged;
    long since;
    long unlogged;
  }
}
