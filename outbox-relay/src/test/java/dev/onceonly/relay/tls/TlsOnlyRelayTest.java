package dev.onceonly.relay.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onceonly.relay.support.Broker;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.RelayRabbitResource;
import dev.onceonly.relay.support.TlsRelayRabbitResource;
import dev.onceonly.testsupport.tls.TlsPostgresResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The relay works when its database and its destination's broker speak TLS only: it leases and
 * completes rows through a {@code sslmode=verify-full} datasource and publishes them over AMQPS,
 * trusting only the CA files a test made.
 */
@QuarkusTest
@TestProfile(TlsOnlyRelayProfile.class)
class TlsOnlyRelayTest {

  @Test
  void leasesOverVerifyFullAndPublishesOverAmqps() {
    assertThat(ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class))
        .contains("sslmode=verify-full")
        .contains("sslrootcert=");
    String run = UUID.randomUUID().toString().substring(0, 8);
    try (Broker broker = Broker.connect()) {
      String queue = broker.queue("test." + run + ".#");
      String key = OutboxRows.uniquePrefix("tls") + "order";
      long id =
          OutboxRows.longs(
                  """
                  INSERT INTO outbox.outbox (kind, payload, idempotency_key)
                  VALUES (?, ?::jsonb, ?) RETURNING id
                  """,
                  RelayRabbitResource.DESTINATION,
                  "{\"run\":\"" + run + "\",\"kind\":\"order\"}",
                  key)
              .get(0);

      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(30))
          .until(() -> OutboxRows.status(id).equals("delivered"));
      List<GetResponse> messages = broker.drain(queue);
      assertThat(messages).hasSize(1);
      assertThat(messages.get(0).getProps().getMessageId()).isEqualTo(key);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    // The start check's handshake and the publishing connection's; the pool's connections.
    assertThat(TlsRelayRabbitResource.proxy().handshakes()).isGreaterThanOrEqualTo(2);
    assertThat(TlsPostgresResource.proxy().handshakes()).isPositive();
  }
}
