package dev.onceonly.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.internal.catalog.ConsumerCatalog;
import dev.onceonly.internal.catalog.Specs;
import dev.onceonly.internal.metrics.QueueDepthGauge.Watched;
import dev.onceonly.testsupport.RabbitMqResource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The queue-depth gauge against a real broker, without the service around it. */
class QueueDepthGaugeTest {

  private static final RabbitMqResource RABBIT = new RabbitMqResource();
  private static ConnectionFactory factory;
  private static Connection connection;
  private static Channel channel;

  @BeforeAll
  static void broker() throws Exception {
    Map<String, String> config = RABBIT.start();
    factory = RabbitMqResource.connectionFactory(config);
    connection = factory.newConnection("queue-depth-test");
    channel = connection.createChannel();
  }

  @AfterAll
  static void close() throws Exception {
    connection.close();
    RABBIT.stop();
  }

  @Test
  void showsReadyMessagesPerQueueAsOfTheLastRefreshOnly() throws Exception {
    String queue = declared("depth");
    String deadLetters = declared("depth-dlq");
    publish(queue, 3);
    MeterRegistry registry = new SimpleMeterRegistry();
    QueueDepthGauge gauge =
        new QueueDepthGauge(
            registry,
            factory,
            List.of(new Watched("loyalty", queue), new Watched("loyalty", deadLetters)));
    try {
      assertThat(depth(registry, queue)).as("before the first refresh").isNaN();

      gauge.refresh();
      assertThat(depth(registry, queue)).isEqualTo(3.0);
      assertThat(depth(registry, deadLetters)).isZero();

      publish(queue, 2);
      assertThat(depth(registry, queue)).as("a read does not go to the broker").isEqualTo(3.0);
      gauge.refresh();
      assertThat(depth(registry, queue)).isEqualTo(5.0);
    } finally {
      gauge.close();
      channel.queueDelete(queue);
      channel.queueDelete(deadLetters);
    }
  }

  @Test
  void aQueueThatCannotBeReadShowsNotANumberInsteadOfAStaleCount() throws Exception {
    String queue = declared("gone");
    String kept = declared("kept");
    publish(queue, 1);
    MeterRegistry registry = new SimpleMeterRegistry();
    QueueDepthGauge gauge =
        new QueueDepthGauge(
            registry,
            factory,
            List.of(new Watched("receipts", queue), new Watched("receipts", kept)));
    try {
      gauge.refresh();
      assertThat(depth(registry, queue)).isEqualTo(1.0);

      channel.queueDelete(queue);
      publish(kept, 1);
      gauge.refresh();
      assertThat(depth(registry, queue)).isNaN();
      assertThat(depth(registry, kept)).as("the other queues are still read").isEqualTo(1.0);
    } finally {
      gauge.close();
      channel.queueDelete(kept);
    }
  }

  @Test
  void watchesEveryConsumerQueueAndItsDeadLetterQueue() {
    ConsumerCatalog catalog =
        new ConsumerCatalog(List.of(Specs.consumer("loyalty"), Specs.consumer("audit")));

    assertThat(QueueDepthGauge.watched(catalog))
        .containsExactlyInAnyOrder(
            new Watched("loyalty", "onceonly.loyalty"),
            new Watched("loyalty", "onceonly.loyalty.dlq"),
            new Watched("audit", "onceonly.audit"),
            new Watched("audit", "onceonly.audit.dlq"));
  }

  private static String declared(String name) throws Exception {
    String queue = "onceonly-test-" + name + "-" + UUID.randomUUID();
    channel.queueDeclare(queue, false, false, false, null);
    return queue;
  }

  private static void publish(String queue, int messages) throws Exception {
    for (int i = 0; i < messages; i++) {
      channel.basicPublish("", queue, null, new byte[] {1});
    }
    // A passive declare on this channel answers after the broker took the publishes before it.
    channel.queueDeclarePassive(queue);
  }

  private static double depth(MeterRegistry registry, String queue) {
    Gauge gauge = registry.find(QueueDepthGauge.METER).tag("queue", queue).gauge();
    assertThat(gauge).as("gauge for " + queue).isNotNull();
    return gauge.value();
  }
}
