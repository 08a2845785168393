package dev.onceonly.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.testsupport.RabbitMqResource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The queue-depth gauges of a RabbitMQ consumer exist from start-up, before their first scheduled
 * read: a scrape or an alert rule never sees the series missing. The scheduler is off here, so only
 * the start can have registered them.
 */
class QueueDepthAtStartTest {

  // Fixed: Quarkus loads this class again for the application, with statics of its own.
  private static final String QUEUE = "onceonly.depth-at-start";
  private static final Map<String, String> BROKER = new RabbitMqResource().start();

  @RegisterExtension
  static final QuarkusUnitTest APP =
      ParcelsOnRabbitMq.service(BROKER, QUEUE)
          .overrideConfigKey("quarkus.scheduler.enabled", "false");

  @Inject MeterRegistry registry;

  @Test
  void bothQueuesOfTheConsumerHaveAGaugeBeforeAnyRead() {
    for (String queue : new String[] {QUEUE, QUEUE + ".dlq"}) {
      Gauge gauge = registry.find("onceonly.consumer.queue.messages").tag("queue", queue).gauge();
      assertThat(gauge).as("the depth gauge of %s", queue).isNotNull();
      assertThat(gauge.getId().getTag("consumer")).isEqualTo("parcels");
    }
  }
}
