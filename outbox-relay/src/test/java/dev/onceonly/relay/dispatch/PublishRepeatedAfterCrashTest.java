package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.GetResponse;
import dev.onceonly.relay.completion.CompletionRepository;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.support.Broker;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Attempt;
import dev.onceonly.relay.support.OutboxRows.Row;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.RelayRabbitResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A relay that dies between publishing a row and writing its outcome: the broker has the message,
 * the row is still in flight under the dead relay's lease. Once the lease expires, the running
 * relay publishes it again, and the second message carries the same {@code message-id}, which is
 * what lets a consumer that claims {@code message-id} apply it once. Proven here with a plain AMQP
 * consumer reading both copies (the claim on the consuming side is the extension's proof).
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = RelayRabbitResource.class, restrictToAnnotatedClass = true)
class PublishRepeatedAfterCrashTest {

  @Inject RelayRunner runner;
  @Inject Destinations destinations;
  @Inject OutboxRepository repository;
  @Inject Dispatcher dispatcher;
  @Inject CompletionRepository completions;
  @Inject RelayMetrics metrics;

  @Test
  void aPublishRepeatedAfterACrashCarriesTheSameMessageId() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String key = OutboxRows.uniquePrefix("crash") + "order";
    Poller running = runner.poller().orElseThrow();
    try (Broker broker = Broker.connect()) {
      String queue = broker.queue("test." + run + ".#");
      List<GetResponse> received = new ArrayList<>();
      long id;
      running.leasing(false);
      try {
        Poller crashing =
            CrashingRelay.start(
                destinations.route(RelayRabbitResource.DESTINATION).orElseThrow(),
                Duration.ofSeconds(2),
                repository,
                dispatcher,
                completions,
                metrics);
        try {
          id =
              OutboxRows.longs(
                      "INSERT INTO outbox.outbox (kind, payload, idempotency_key)"
                          + " VALUES (?, ?::jsonb, ?) RETURNING id",
                      RelayRabbitResource.DESTINATION,
                      "{\"run\":\"" + run + "\",\"kind\":\"order\"}",
                      key)
                  .get(0);
          await()
              .pollInSameThread()
              .atMost(Duration.ofSeconds(20))
              .until(() -> received.addAll(broker.drain(queue)) || !received.isEmpty());
        } finally {
          crashing.stop(Duration.ZERO);
        }
        Row orphaned = OutboxRows.row(id);
        assertThat(orphaned.status()).isEqualTo("in_flight");
        assertThat(orphaned.leaseOwner()).isEqualTo(CrashingRelay.OWNER);
        assertThat(OutboxRows.attempts(id)).as("the dead relay wrote nothing").isEmpty();
      } finally {
        running.leasing(true);
      }

      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(30))
          .until(() -> OutboxRows.status(id).equals("delivered"));
      received.addAll(broker.drain(queue));

      assertThat(received).hasSize(2);
      assertThat(received).extracting(m -> m.getProps().getMessageId()).containsExactly(key, key);
      assertThat(received.get(1).getBody()).isEqualTo(received.get(0).getBody());
      assertThat(OutboxRows.row(id).attempts()).isEqualTo(2);
      assertThat(OutboxRows.attempts(id))
          .extracting(Attempt::attempt, Attempt::relayId, Attempt::outcome)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(2, "relay-main", "delivered"));
    }
  }
}
