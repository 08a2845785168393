package dev.onceonly.relay.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Call;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-key ordering ({@code relay.ordering=true}): one row of an ordering key at a time. */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class OrderingTest {

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void rowsOfOneKeyAreDeliveredInOrderEachAfterThePreviousWasAnswered() {
    String prefix = OutboxRows.uniquePrefix("ordered");
    String customer = prefix + "customer";
    String first = prefix + "1";
    String second = prefix + "2";
    String third = prefix + "3";
    // A slow first call: without ordering, the later rows would overtake it.
    stub.script(first, Step.normal().held(Duration.ofMillis(300)));
    List<Long> ids =
        OutboxRows.insert(
            List.of(
                OutboxRows.receipt(first, customer),
                OutboxRows.receipt(second, customer),
                OutboxRows.receipt(third, customer)));

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ids.stream().allMatch(id -> OutboxRows.status(id).equals("delivered")));

    Call a = single(first);
    Call b = single(second);
    Call c = single(third);
    assertThat(b.receivedAt()).isAfter(a.answeredAt());
    assertThat(c.receivedAt()).isAfter(b.answeredAt());
  }

  @Test
  void deadRowParksOnlyItsOwnKey() {
    String prefix = OutboxRows.uniquePrefix("parked");
    String parkedKey = prefix + "customer-a";
    String otherKey = prefix + "customer-b";
    String failing = prefix + "a1";
    String blocked = prefix + "a2";
    stub.always(failing, Step.status(400));
    List<Long> ids =
        OutboxRows.insert(
            List.of(
                OutboxRows.receipt(failing, parkedKey),
                OutboxRows.receipt(blocked, parkedKey),
                OutboxRows.receipt(prefix + "b1", otherKey),
                OutboxRows.receipt(prefix + "b2", otherKey)));

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                OutboxRows.status(ids.get(0)).equals("dead")
                    && OutboxRows.status(ids.get(2)).equals("delivered")
                    && OutboxRows.status(ids.get(3)).equals("delivered"));
    await()
        .pollInSameThread()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(3))
        .until(() -> OutboxRows.row(ids.get(1)).attempts() == 0);

    assertThat(OutboxRows.status(ids.get(1))).isEqualTo("pending");
    assertThat(stub.calls(blocked)).isEmpty();
  }

  private Call single(String key) {
    List<Call> calls = stub.calls(key);
    assertThat(calls).as("calls for %s", key).hasSize(1);
    return calls.get(0);
  }
}
