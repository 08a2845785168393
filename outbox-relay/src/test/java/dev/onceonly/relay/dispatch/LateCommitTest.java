package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Leases start at a floor that skips delivered rows (see {@link LeaseFloor}); a row that commits
 * below it, long after it took its id, must still be delivered, without waiting for a poll.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class LateCommitTest {

  @Inject RelayRunner runner;

  @Test
  void aRowCommittedBelowTheLeaseFloorIsDelivered() throws Exception {
    ProviderStub.get();
    Poller poller = runner.poller().orElseThrow();
    String prefix = OutboxRows.uniquePrefix("late-commit");
    // Let earlier tests' rows settle: a row still waiting holds the floor below it.
    OutboxRows.awaitNone("status IN ('pending', 'in_flight')", Duration.ofSeconds(30));

    try (Connection late = OutboxRows.connect()) {
      late.setAutoCommit(false);
      long lateId;
      try (PreparedStatement insert =
          late.prepareStatement(
              "INSERT INTO outbox.outbox (kind, payload, idempotency_key)"
                  + " VALUES ('send_receipt', '{}', ?) RETURNING id")) {
        insert.setString(1, prefix + "late");
        try (ResultSet rs = insert.executeQuery()) {
          rs.next();
          lateId = rs.getLong(1);
        }
      }
      // Later rows commit and are delivered while the early one is still open, until the
      // poller's floor has moved past it (each commit's NOTIFY makes the poller look again).
      int[] n = {0};
      await()
          .pollInSameThread()
          .pollInterval(Duration.ofMillis(200))
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> {
                OutboxRows.insert(OutboxRows.receipt(prefix + "later-" + n[0]++));
                return poller.leaseFloor() > lateId;
              });
      late.commit();

      // The test profile polls every 30 s: delivery well before that came from the NOTIFY.
      await()
          .pollInSameThread()
          .atMost(Duration.ofSeconds(10))
          .until(() -> OutboxRows.status(lateId).equals("delivered"));
      assertThat(ProviderStub.get().effectiveCalls(k -> k.equals(prefix + "late"))).isEqualTo(1);
    }
  }
}
