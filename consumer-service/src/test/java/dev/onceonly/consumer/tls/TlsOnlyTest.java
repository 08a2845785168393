package dev.onceonly.consumer.tls;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.consumer.Broker;
import dev.onceonly.consumer.ConsumerName;
import dev.onceonly.consumer.Db;
import dev.onceonly.consumer.Queues;
import dev.onceonly.testsupport.tls.TlsPostgresResource;
import dev.onceonly.testsupport.tls.TlsRabbitMqResource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The consumer works when its broker and its database speak TLS only: the connector's channels
 * consume over AMQPS, the platform's own connections publish dead letters and read queue depths
 * over AMQPS, and claims and effects commit through a {@code sslmode=verify-full} datasource, each
 * trusting only the CA file a test made.
 */
@QuarkusTest
@TestProfile(TlsOnlyProfile.class)
class TlsOnlyTest {

  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Inject Db db;
  @Inject MeterRegistry registry;

  @Test
  void consumesDeadLettersAndCommitsOverTlsOnly() throws Exception {
    assertThat(ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class))
        .contains("sslmode=verify-full")
        .contains("sslrootcert=");
    String dlq = Queues.deadLetterQueue(ConsumerName.LOYALTY);
    String customer = unique("c");
    try (Broker broker = Broker.connect()) {
      broker.purge(dlq);
      broker.publish(order(unique("o"), customer, 4_200));
      broker.publish("order.completed", "{not json".getBytes(StandardCharsets.UTF_8));
      broker.confirmAll();

      await().pollInSameThread().atMost(PATIENCE).until(() -> db.balance(customer) == 42);
      await().atMost(PATIENCE).until(() -> broker.depth(dlq) == 1);
      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  registry
                          .find("onceonly.consumer.queue.messages")
                          .tag("queue", dlq)
                          .gauge()
                          .value()
                      == 1.0);
    }
    // Three channels, the dead letters' and the gauge's connections and this test's own: TLS all.
    assertThat(TlsRabbitMqResource.proxy().handshakes()).isGreaterThanOrEqualTo(6);
    assertThat(TlsPostgresResource.proxy().handshakes()).isPositive();
  }
}
