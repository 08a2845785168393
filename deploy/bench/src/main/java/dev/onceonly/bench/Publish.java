package dev.onceonly.bench;

import com.rabbitmq.client.ConnectionFactory;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * One phase of the consumer benchmark: publishes a series of OrderCompleted events and measures,
 * from the first publish to the moment both consumers' {@code --await} counters (applied or
 * duplicate, or dead_lettered for {@code --bodies poison}: the chaos suite's invalid messages
 * instead of the events) have grown by the series' size, the rate, the handle times, the consumer's
 * RSS and who used the CPU. Prints {@code key=value} lines on stdout for the script; progress on
 * stderr.
 *
 * <p>Options: {@code --run --series --count --occurred-at --await applied|duplicate --metrics-url
 * --consumer-pid [--bodies events|poison|poisoned] [--customers 10000] [--max-backlog 4000]
 * [--confirm-window 500] [--stall-seconds 90] [--rabbitmq-host/port/user/password/vhost]}.
 */
public final class Publish {

  static final List<String> CONSUMERS = List.of("loyalty", "receipts");
  static final List<String> QUEUES = List.of("onceonly.loyalty", "onceonly.receipts");

  private Publish() {}

  public static void main(String[] args) throws Exception {
    Options o = new Options(args);
    int count = o.getInt("count", 20_000);
    long consumerPid = o.getLong("consumer-pid", 0);
    EventFeed feed = EventFeed.of(o);
    String kind = o.get("bodies", "events");
    // encoded before the clock starts
    byte[][] bodies =
        switch (kind) {
          case "events" -> feed.bodies(count);
          case "poison" -> feed.poisonBodies(count);
          case "poisoned" -> feed.bodiesWithPoison(count);
          default ->
              throw new IllegalArgumentException(
                  "--bodies is events, poison or poisoned, got " + kind);
        };

    try (BacklogPublisher publisher =
        new BacklogPublisher(
            factory(o), QUEUES, o.getInt("max-backlog", 4_000), o.getInt("confirm-window", 500))) {
      measure(o, count, kind, new CpuGroups(consumerPid), () -> publisher.publish(bodies));
      out("publisher_paused_seconds", publisher.pausedSeconds());
      out("max_queue_depth", publisher.maxDepthSeen());
    }
  }

  /** What a phase sends, on a thread of its own; returns once the broker has taken all of it. */
  interface Sending {
    void send() throws Exception;
  }

  /**
   * Measures one phase: runs {@code sending} and waits until both consumers' {@code --await}
   * counters grew by {@code count}, then prints the rate, the handle times, the consumer's RSS and
   * who used the CPU ({@code cpu}) as {@code key=value} lines.
   */
  static void measure(Options o, int count, String kind, CpuGroups cpu, Sending sending)
      throws Exception {
    String await = o.get("await", "applied");
    long consumerPid = o.getLong("consumer-pid", 0);
    long stallSeconds = o.getLong("stall-seconds", 90);
    MetricsProbe metrics = new MetricsProbe(URI.create(o.require("metrics-url")));
    MetricsProbe.Snapshot before = metrics.read();
    RssSampler rss = consumerPid > 0 ? new RssSampler(consumerPid, 500) : null;
    cpu.start();
    long started = System.nanoTime();
    CompletableFuture<Double> published =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                sending.send();
                return (System.nanoTime() - started) / 1e9;
              } catch (Exception e) {
                throw new IllegalStateException("publishing failed: " + e, e);
              }
            });
    CounterWait wait =
        new CounterWait(metrics, CONSUMERS, await, kind.equals("poisoned"), stallSeconds);
    MetricsProbe.Snapshot after =
        wait.await(
            before,
            count,
            started,
            o.require("series"),
            () -> {
              if (published.isCompletedExceptionally()) {
                published.join();
              }
            });
    double seconds = (System.nanoTime() - started) / 1e9;
    Map<String, Double> cpuPct = cpu.stop();
    if (rss != null) {
      rss.close();
    }
    double publishSeconds = published.join();
    out("seconds", seconds);
    out("events", count);
    out("events_per_s", count / seconds);
    out("tx_per_s", CONSUMERS.size() * count / seconds);
    out("publish_seconds", publishSeconds);
    for (String c : CONSUMERS) {
      double n = after.handleCount(c) - before.handleCount(c);
      out(c + "_mean_ms", n == 0 ? 0 : 1000 * (after.handleSum(c) - before.handleSum(c)) / n);
      out(c + "_p50_ms", wait.quantiles().p50Millis(c));
      out(c + "_p99_ms", wait.quantiles().p99Millis(c));
      out(c + "_p99_max_ms", wait.quantiles().p99MaxMillis(c));
      out(c + "_quantile_readings", wait.quantiles().readings(c));
      out(c + "_max_ms", 1000 * after.handleMax(c));
    }
    out("unexpected_outcomes", wait.unexpected(before, after));
    if (rss != null) {
      out("rss_max_mb", rss.maxRssMb());
      out("rss_hwm_mb", rss.hwmMb());
      out("rss_samples", rss.samples());
    }
    cpuPct.forEach((group, pct) -> out("cpu_" + group + "_pct", pct));
    out("cores", CpuGroups.cores());
  }

  private static ConnectionFactory factory(Options o) {
    ConnectionFactory f = new ConnectionFactory();
    f.setHost(o.get("rabbitmq-host", "127.0.0.1"));
    f.setPort(o.getInt("rabbitmq-port", 5672));
    f.setUsername(o.get("rabbitmq-user", "guest"));
    f.setPassword(o.get("rabbitmq-password", "guest"));
    f.setVirtualHost(o.get("rabbitmq-vhost", "onceonly-bench"));
    return f;
  }

  static void out(String key, Object value) {
    if (value instanceof Double d) {
      System.out.println(key + "=" + String.format(Locale.ROOT, "%.2f", d));
    } else {
      System.out.println(key + "=" + value);
    }
  }
}
