package dev.onceonly.internal.metrics;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.messaging.BrokerConnections;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * {@code onceonly.consumer.queue.messages{consumer,queue}}: messages ready in each consumer's queue
 * and in its dead-letter queue, the lag and the dead letters to alert on. Read on a schedule with a
 * passive declare per queue, on a broker connection of its own, so a scrape never waits on the
 * broker and never disturbs the consumers' channels. A queue that cannot be read (broker down,
 * queue missing) shows NaN until it can again, rather than a stale count. Built at start-up, so
 * every gauge is in the first scrape (NaN until the first read) instead of appearing with it.
 */
@Startup
@Singleton
public class QueueDepthGauge {

  static final String METER = "onceonly.consumer.queue.messages";
  private static final Logger LOG = Logger.getLogger(QueueDepthGauge.class);

  /** One queue watched: the consumer it belongs to and its name. */
  record Watched(String consumer, String queue) {}

  private final ConnectionFactory factory;
  private final Map<String, AtomicReference<Double>> depths = new TreeMap<>();
  private Connection connection;

  @Inject
  public QueueDepthGauge(MeterRegistry registry, Config config, ConsumerCatalog catalog) {
    this(registry, BrokerConnections.factory(config), watched(catalog));
  }

  QueueDepthGauge(MeterRegistry registry, ConnectionFactory factory, List<Watched> watched) {
    this.factory = factory;
    for (Watched w : watched) {
      AtomicReference<Double> depth = new AtomicReference<>(Double.NaN);
      depths.put(w.queue(), depth);
      Gauge.builder(METER, depth, AtomicReference::get)
          .description("Messages ready in a consumer's queue or dead-letter queue")
          .tag("consumer", w.consumer())
          .tag("queue", w.queue())
          .register(registry);
    }
  }

  @Scheduled(
      every = "${quarkus.onceonly.broker.queue-depth-refresh:15s}",
      concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
      skipExecutionIf = Scheduled.ApplicationNotRunning.class)
  synchronized void refresh() {
    for (Map.Entry<String, AtomicReference<Double>> entry : depths.entrySet()) {
      entry.getValue().set(read(entry.getKey()));
    }
  }

  private double read(String queue) {
    try {
      Connection open = connection();
      // A passive declare of a missing queue closes its channel: one channel per queue.
      try (Channel channel = open.createChannel()) {
        return channel.queueDeclarePassive(queue).getMessageCount();
      }
    } catch (IOException | TimeoutException | RuntimeException e) {
      LOG.debugf(e, "depth of queue %s not read", queue);
      if (connection != null && !connection.isOpen()) {
        connection = null;
      }
      return Double.NaN;
    }
  }

  private Connection connection() throws IOException, TimeoutException {
    if (connection == null || !connection.isOpen()) {
      connection = factory.newConnection("onceonly-queue-depth");
    }
    return connection;
  }

  @PreDestroy
  synchronized void close() {
    if (connection != null && connection.isOpen()) {
      try {
        connection.close();
      } catch (IOException | RuntimeException e) {
        LOG.debugf(e, "queue-depth connection not closed cleanly");
      }
    }
  }

  /**
   * Each RabbitMQ consumer's queue and its dead-letter queue (a Kafka consumer's lag is the Kafka
   * client's own metric, docs/kafka.md).
   */
  static List<Watched> watched(ConsumerCatalog catalog) {
    List<Watched> watched = new ArrayList<>();
    for (ConsumerSpec consumer : catalog.all()) {
      if (consumer.kafka()) {
        continue;
      }
      watched.add(new Watched(consumer.name(), consumer.queue()));
      watched.add(new Watched(consumer.name(), consumer.deadLetterQueue()));
    }
    return watched;
  }
}
