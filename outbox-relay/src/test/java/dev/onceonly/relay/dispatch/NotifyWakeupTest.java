package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.config.RelayConfig;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Row;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class NotifyWakeupTest {

  @Inject RelayConfig config;

  @Test
  void notifiedRowIsDeliveredLongBeforeThePollInterval() {
    assertThat(config.pollInterval()).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
    ProviderStub.get();
    // Let the relay go idle: nothing in flight, nothing scheduled for later.
    OutboxRows.awaitNone(
        "status = 'in_flight' OR (status = 'pending' AND available_at > now())",
        Duration.ofSeconds(30));
    String key = OutboxRows.uniquePrefix("notify") + "receipt";

    long id = OutboxRows.insert(OutboxRows.receipt(key));

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(id).equals("delivered"));
    Row row = OutboxRows.row(id);
    assertThat(Duration.between(row.createdAt(), row.deliveredAt()))
        .isLessThan(Duration.ofSeconds(2));
  }
}
