package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class ConcurrentRelaysTest {

  private static final int ROWS = 2_000;

  @Inject RelayRunner runner;

  @Test
  void twoRelaysDeliverEveryRowOnceAndNeverLeaseTheSameRowAtOnce() {
    ProviderStub stub = ProviderStub.get();
    String prefix = OutboxRows.uniquePrefix("concurrent");
    Poller second = runner.newPoller("relay-second");
    second.start();
    try {
      List<Long> ids =
          OutboxRows.insert(
              IntStream.range(0, ROWS)
                  .mapToObj(i -> OutboxRows.receipt(prefix + i))
                  .collect(Collectors.toList()));

      await().pollInSameThread().atMost(Duration.ofSeconds(90)).until(() -> delivered(ids) == ROWS);

      assertThat(stub.effectiveCalls(k -> k.startsWith(prefix))).isEqualTo(ROWS);
      assertThat(stub.calls(k -> k.startsWith(prefix)))
          .as("no call repeated: no row was leased twice")
          .hasSize(ROWS);
      assertThat(stub.overlaps()).as("calls overlapping with the same key").isZero();
      assertThat(relaysThatDelivered(ids))
          .as("both relays took part")
          .containsExactlyInAnyOrder("relay-main", "relay-second");
      assertThat(overlappingLeases(ids)).as("attempts of one row overlapping in time").isZero();
    } finally {
      runner.retire(second, Duration.ofSeconds(5));
    }
  }

  private static long delivered(List<Long> ids) {
    return OutboxRows.longs(
            "SELECT count(*) FROM outbox.outbox WHERE id BETWEEN ? AND ? AND status = 'delivered'",
            ids.get(0),
            ids.get(ids.size() - 1))
        .get(0);
  }

  private static List<String> relaysThatDelivered(List<Long> ids) {
    return OutboxRows.strings(
        """
        SELECT DISTINCT relay_id FROM outbox.outbox_attempts
         WHERE outbox_id BETWEEN ? AND ? AND outcome = 'delivered'
        """,
        ids.get(0),
        ids.get(ids.size() - 1));
  }

  private static long overlappingLeases(List<Long> ids) {
    return OutboxRows.longs(
            """
            SELECT count(*) FROM outbox.outbox_attempts a
              JOIN outbox.outbox_attempts b
                ON a.outbox_id = b.outbox_id AND a.id < b.id
               AND tstzrange(a.started_at, a.finished_at) && tstzrange(b.started_at, b.finished_at)
             WHERE a.outbox_id BETWEEN ? AND ?
            """,
            ids.get(0),
            ids.get(ids.size() - 1))
        .get(0);
  }
}
