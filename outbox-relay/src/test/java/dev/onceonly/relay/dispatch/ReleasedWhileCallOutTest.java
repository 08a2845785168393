package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.completion.Completer;
import dev.onceonly.relay.completion.Completion;
import dev.onceonly.relay.completion.CompletionRepository;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.lease.OutboxRepository;
import dev.onceonly.relay.metrics.RelayMetrics;
import dev.onceonly.relay.support.Configs;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.opentelemetry.api.OpenTelemetry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A call that outlives its row's lease: the same relay leases the row again and calls a second time
 * while the first call is still out. Both outcomes reach the completer (the fence then refuses the
 * stale one) and both calls give their destination's room back, whichever returns first.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class ReleasedWhileCallOutTest {

  private static final String STALLING = "stalling";

  @Inject OutboxRepository repository;
  @Inject CompletionRepository completions;
  @Inject RelayMetrics metrics;
  @Inject Vertx vertx;

  private final ProviderStub stub = ProviderStub.get();

  /** A call held at the door until the test lets it go on to the destination. */
  private record Held(LeasedRow row, CompletableFuture<Void> gate) {}

  @Test
  void bothCallsOfAReleasedRowAreWrittenAndFreeTheirRoom() {
    String prefix = OutboxRows.uniquePrefix("relet");
    long id = OutboxRows.insert(new NewRow(STALLING, "{\"n\":1}", prefix + "row", null));
    int port = Integer.getInteger(ProviderStub.PORT_PROPERTY);
    Destinations destinations =
        new Destinations(
            Configs.fromProperties(
                Map.of(
                    "relay.destinations.\"" + STALLING + "\".http.url",
                    "http://127.0.0.1:" + port + "/v1/stalling",
                    "relay.destinations.\"" + STALLING + "\".max-in-flight",
                    "2")),
            vertx);
    // The first call of each key named here is held until the test lets it go; every other call
    // goes to the destination at once.
    Set<String> holdOnce = ConcurrentHashMap.newKeySet();
    holdOnce.add(prefix + "row");
    List<Held> held = new CopyOnWriteArrayList<>();
    List<LeasedRow> calls = new CopyOnWriteArrayList<>();
    Dispatcher holding =
        new Dispatcher(destinations, metrics, new DeliveryTracing(OpenTelemetry.noop(), true)) {
          @Override
          public CompletableFuture<Completion> dispatch(LeasedRow row, String relayId) {
            calls.add(row);
            if (!holdOnce.remove(row.idempotencyKey())) {
              return super.dispatch(row, relayId);
            }
            CompletableFuture<Void> gate = new CompletableFuture<>();
            held.add(new Held(row, gate));
            return gate.thenCompose(go -> super.dispatch(row, relayId));
          }
        };
    List<Completion> written = new CopyOnWriteArrayList<>();
    Completer recording =
        new Completer(completions, metrics) {
          @Override
          public void complete(List<Completion> finished) {
            written.addAll(finished);
            super.complete(finished);
          }
        };
    Poller poller =
        new Poller(
            "relay-relet",
            new PollerSettings(
                10, Duration.ofMillis(600), Duration.ofMillis(100), Duration.ZERO, true),
            destinations.all(),
            repository,
            holding,
            recording);
    poller.start();
    try {
      // The first call is held past its lease; the row is leased again and delivered by the
      // second call while the first is still out.
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(
              () ->
                  assertThat(OutboxRows.status(id))
                      .as("calls %s, outcomes written %s", calls, written)
                      .isEqualTo("delivered"));
      assertThat(calls).hasSize(2);
      LeasedRow first = calls.get(0);
      LeasedRow second = calls.get(1);
      assertThat(second.id()).isEqualTo(first.id()).isEqualTo(id);
      assertThat(second.leaseUntil()).isAfter(first.leaseUntil());
      assertThat(held).extracting(Held::row).containsExactly(first);

      // Now the first call returns: its outcome is written too (refused by the fence).
      held.get(0).gate().complete(null);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(written)
                      .extracting(c -> c.row().leaseUntil())
                      .containsExactlyInAnyOrder(first.leaseUntil(), second.leaseUntil()));
      assertThat(OutboxRows.status(id)).isEqualTo("delivered");
      assertThat(OutboxRows.row(id).attempts()).isEqualTo(2);
      assertThat(stub.calls(prefix + "row")).as("both calls, with the row's one key").hasSize(2);

      // Both calls gave their room back: two rows whose calls are held are both taken at once.
      holdOnce.add(prefix + "a");
      holdOnce.add(prefix + "b");
      long a = OutboxRows.insert(new NewRow(STALLING, "{\"n\":2}", prefix + "a", null));
      long b = OutboxRows.insert(new NewRow(STALLING, "{\"n\":3}", prefix + "b", null));
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(held).extracting(h -> h.row().id()).contains(a, b));
      held.forEach(h -> h.gate().complete(null));
    } finally {
      poller.stop(Duration.ofSeconds(2));
    }
  }
}
