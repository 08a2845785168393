package dev.onceonly.pipeline;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Waits until the pipeline is quiet: every queue empty (on Kafka: every consumer group's offsets
 * committed to the end of its topics) and every consumer has decided what the feed sent (or its
 * counters stopped moving), then no outbox row pending or in flight. Prints a progress line every
 * few seconds; exits 3 if the bound passes first.
 *
 * <p>Options: {@code --consumer-management-url= --summary= --db-url= [--timeout-seconds=180]
 * [--transport=rabbitmq|kafka] [--amqp-...] [--kafka-bootstrap=]}
 */
public final class Drain {

  static final String[] CONSUMERS = {"loyalty", "receipts", "profiles"};
  private static final long POLL_MS = 1_000;
  private static final long PROGRESS_MS = 5_000;
  private static final long STILL_MS = 10_000;

  private Drain() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options(args);
    String consumerManagementUrl = options.required("consumer-management-url");
    FeedSummary sent = FeedSummary.read(Path.of(options.required("summary")));
    Map<String, Integer> expected =
        Map.of(
            "loyalty", sent.loyaltyDeliveries(),
            "receipts", sent.orderDeliveries(),
            "profiles", sent.profileMessages());
    long started = System.currentTimeMillis();
    long deadline = started + options.number("timeout-seconds", 180) * 1_000L;
    long lastProgress = 0;
    long lastTotal = -1;
    long stillSince = started;
    boolean kafka = options.transport() == Options.Transport.KAFKA;
    try (Backlog backlog = kafka ? kafka(options) : rabbitMq(options);
        PipelineDb db = new PipelineDb(options.database())) {
      while (true) {
        long now = System.currentTimeMillis();
        OutcomeCounters counters = OutcomeCounters.scrape(consumerManagementUrl);
        long ready = 0;
        StringBuilder line = new StringBuilder();
        boolean allDecided = true;
        for (String consumer : CONSUMERS) {
          long depth = backlog.of(consumer);
          ready += depth;
          long decided = counters.decided(consumer);
          allDecided &= decided >= expected.get(consumer);
          line.append(
              String.format(
                  "%s %d/%d (%s %d)  ",
                  consumer, decided, expected.get(consumer), kafka ? "lag" : "queue", depth));
        }
        if (counters.total() != lastTotal) {
          lastTotal = counters.total();
          stillSince = now;
        }
        boolean consumersDone = ready == 0 && (allDecided || now - stillSince >= STILL_MS);
        Map<String, Long> outbox = byStatus(db.counts(PipelineDb.SQL_OUTBOX_BY_KIND_STATUS));
        long open = outbox.getOrDefault("pending", 0L) + outbox.getOrDefault("in_flight", 0L);
        line.append(
            String.format(
                "| outbox pending %d, in flight %d, delivered %d, dead %d",
                outbox.getOrDefault("pending", 0L),
                outbox.getOrDefault("in_flight", 0L),
                outbox.getOrDefault("delivered", 0L),
                outbox.getOrDefault("dead", 0L)));
        boolean done = consumersDone && open == 0;
        if (done || now - lastProgress >= PROGRESS_MS) {
          System.out.printf("  [%3ds] %s%n", (now - started) / 1000, line);
          lastProgress = now;
        }
        if (done) {
          if (!allDecided) {
            System.out.println("  consumers stopped before deciding all the feed sent");
          }
          return;
        }
        if (now >= deadline) {
          System.out.printf("  not drained after %d s%n", (now - started) / 1000);
          System.exit(3);
        }
        Thread.sleep(POLL_MS);
      }
    }
  }

  /** What a consumer has not taken yet: its queue's depth, or its consumer group's lag. */
  private interface Backlog extends AutoCloseable {
    long of(String consumer) throws Exception;
  }

  private static Backlog rabbitMq(Options options) throws Exception {
    Connection amqp = Publisher.connect(options.broker(), "onceonly-drain");
    Channel channel = amqp.createChannel();
    return new Backlog() {
      @Override
      public long of(String consumer) throws IOException {
        return channel.queueDeclarePassive("onceonly." + consumer).getMessageCount();
      }

      @Override
      public void close() throws IOException {
        amqp.close();
      }
    };
  }

  private static Backlog kafka(Options options) {
    KafkaView view = new KafkaView(options.kafkaBootstrap());
    return new Backlog() {
      @Override
      public long of(String consumer) throws Exception {
        return view.lag(consumer);
      }

      @Override
      public void close() {
        view.close();
      }
    };
  }

  private static Map<String, Long> byStatus(Map<String, Long> byKindAndStatus) {
    Map<String, Long> byStatus = new HashMap<>();
    byKindAndStatus.forEach(
        (k, v) -> byStatus.merge(k.substring(k.indexOf('/') + 1), v, Long::sum));
    return byStatus;
  }
}
