package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Attempt;
import dev.onceonly.relay.support.OutboxRows.Row;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Call;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class GracefulShutdownTest {

  @Inject RelayRunner runner;

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void stoppingRelayFinishesQuickCallsAndReleasesTheRestToAnotherRelay() {
    String prefix = OutboxRows.uniquePrefix("shutdown");
    String slow = prefix + "slow";
    String quick = prefix + "quick";
    stub.script(slow, Step.normal().held(Duration.ofSeconds(10)));
    stub.script(quick, Step.normal().held(Duration.ofMillis(200)));
    Poller main = runner.poller().orElseThrow();
    main.leasing(false); // only the relay under test leases until it is gone
    Poller stopping = runner.newPoller("relay-stopping");
    List<Long> ids;
    try {
      ids = OutboxRows.insert(List.of(OutboxRows.receipt(slow), OutboxRows.receipt(quick)));
      stopping.start();
      await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> stub.inProgress(slow));

      runner.retire(stopping, Duration.ofMillis(700));

      Row released = OutboxRows.row(ids.get(0));
      assertThat(released.status()).isEqualTo("pending");
      assertThat(released.leaseOwner()).isNull();
      assertThat(released.attempts()).as("the cut-short attempt stays counted").isEqualTo(1);
      assertThat(OutboxRows.attempts(ids.get(0)))
          .extracting(Attempt::relayId, Attempt::outcome)
          .containsExactly(tuple("relay-stopping", "released"));
      assertThat(OutboxRows.row(ids.get(1)).status())
          .as("a call that ended within the shutdown timeout is completed")
          .isEqualTo("delivered");
    } finally {
      stub.releaseHeld();
      // The released call is still open at the provider until it answers; a second call with its
      // key meanwhile would be refused (409) and retried, which is not what this test is about.
      await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !stub.inProgress(slow));
      main.leasing(true);
    }

    long slowId = ids.get(0);
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(slowId).equals("delivered"));
    assertThat(OutboxRows.attempts(slowId))
        .extracting(Attempt::relayId, Attempt::attempt, Attempt::outcome)
        .containsExactly(
            tuple("relay-stopping", 1, "released"), tuple("relay-main", 2, "delivered"));
    assertThat(stub.calls(slow)).filteredOn(Call::effective).hasSize(1);
  }
}
