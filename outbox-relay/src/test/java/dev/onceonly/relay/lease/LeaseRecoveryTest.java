package dev.onceonly.relay.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.completion.CompletionRepository;
import dev.onceonly.relay.completion.Completions;
import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.DeliveryResult.Classification;
import dev.onceonly.relay.retry.Decision;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.Attempt;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxRows.Row;
import dev.onceonly.relay.support.OutboxTestResource;
import dev.onceonly.relay.support.ProviderStub;
import dev.onceonly.relay.support.ProviderStub.Call;
import dev.onceonly.relay.support.ProviderStub.Step;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class LeaseRecoveryTest {

  @Inject CompletionRepository completions;

  private final ProviderStub stub = ProviderStub.get();

  @Test
  void rowOfARelayThatDiedMidFlightIsReclaimedAfterExpiryWithTheSameKey() {
    String key = OutboxRows.uniquePrefix("died") + "receipt";
    NewRow receipt = OutboxRows.receipt(key);
    // The dead relay leased the row for 1.5 s, called the provider (effect taken), then died.
    long id = OutboxRows.insertLeased(receipt, "relay-dead", 1_500);
    assertThat(stub.post("/v1/receipts", key, OutboxRows.payload(id))).isEqualTo(200);
    Instant leaseEnd = OutboxRows.row(id).createdAt().plusMillis(1_500);

    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(15))
        .until(() -> OutboxRows.status(id).equals("delivered"));

    Row row = OutboxRows.row(id);
    assertThat(row.attempts()).isEqualTo(2);
    List<Attempt> attempts = OutboxRows.attempts(id);
    assertThat(attempts).hasSize(1);
    assertThat(attempts.get(0).relayId()).isEqualTo("relay-main");
    assertThat(attempts.get(0).attempt()).isEqualTo(2);
    assertThat(attempts.get(0).startedAt()).as("not reclaimed before expiry").isAfter(leaseEnd);
    List<Call> calls = stub.calls(key);
    assertThat(calls).hasSize(2).allSatisfy(c -> assertThat(c.key()).isEqualTo(key));
    assertThat(calls).filteredOn(Call::effective).hasSize(1);
  }

  @Test
  void zombieRelayCannotCompleteALeaseThatExpiredAndWasReclaimed() {
    String key = OutboxRows.uniquePrefix("zombie") + "receipt";
    // The new owner's call is held at the provider while the zombie tries to complete.
    stub.script(key, Step.normal().held(Duration.ofSeconds(10)));
    long id = OutboxRows.insertLeased(OutboxRows.receipt(key), "relay-zombie", -1_000);

    await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> stub.inProgress(key));
    Row reclaimed = OutboxRows.row(id);
    assertThat(reclaimed.leaseOwner()).isEqualTo("relay-main");
    assertThat(reclaimed.attempts()).isEqualTo(2);

    LeasedRow zombieLease =
        new LeasedRow(id, "send_receipt", "{}", key, null, 1, 1, reclaimed.createdAt(), null, null);
    Instant now = Instant.now();
    boolean[] held =
        completions.complete(
            List.of(
                Completions.of(
                    zombieLease,
                    "relay-zombie",
                    DeliveryResult.answered(Classification.SUCCESS, 200, null, "{}"),
                    Decision.delivered(),
                    now,
                    now,
                    null),
                Completions.of(
                    zombieLease,
                    "relay-zombie",
                    DeliveryResult.answered(Classification.FINAL, 400, null, "{}"),
                    Decision.dead("zombie gives up"),
                    now,
                    now,
                    null)));

    assertThat(held).containsExactly(false, false);
    Row untouched = OutboxRows.row(id);
    assertThat(untouched.status()).isEqualTo("in_flight");
    assertThat(untouched.leaseOwner()).isEqualTo("relay-main");
    assertThat(untouched.deliveredAt()).isNull();
    assertThat(OutboxRows.attempts(id))
        .extracting(Attempt::relayId, Attempt::outcome)
        .containsOnly(tuple("relay-zombie", "lease_lost"));

    stub.releaseHeld();
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(10))
        .until(() -> OutboxRows.status(id).equals("delivered"));
    assertThat(OutboxRows.attempts(id))
        .filteredOn(a -> a.relayId().equals("relay-main"))
        .extracting(Attempt::attempt, Attempt::outcome)
        .containsExactly(tuple(2, "delivered"));
  }

  /**
   * After a failover to a standby that never received a lease, the same relay can lease the row
   * again with the same attempt number while its first call is out (chaos scenarios 13 and 14):
   * owner and attempt are equal, only the lease's end differs. The first call's completion must
   * find its lease gone.
   */
  @Test
  void aLeaseLostInAFailoverCannotCompleteTheSameRelaysNewLeaseOfTheSameAttempt() throws Exception {
    String key = OutboxRows.uniquePrefix("failover") + "receipt";
    long id = OutboxRows.insertLeased(OutboxRows.receipt(key), "relay-failover", 60_000);
    Instant firstEnd = leaseEnd(id);
    LeasedRow first =
        new LeasedRow(
            id,
            "send_receipt",
            "{}",
            key,
            null,
            1,
            1,
            OutboxRows.row(id).createdAt(),
            null,
            firstEnd);
    // The promoted node never had that lease; relay-failover leased the row there again.
    try (Connection c = OutboxRows.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE outbox.outbox SET lease_until = now() + interval '2 minutes' WHERE id = ?")) {
      ps.setLong(1, id);
      ps.executeUpdate();
    }
    Instant secondEnd = leaseEnd(id);
    assertThat(secondEnd).isNotEqualTo(firstEnd);
    LeasedRow second =
        new LeasedRow(
            id, "send_receipt", "{}", key, null, 1, 1, first.createdAt(), null, secondEnd);
    Instant now = Instant.now();

    boolean[] held =
        completions.complete(
            List.of(
                Completions.of(
                    first,
                    "relay-failover",
                    DeliveryResult.answered(Classification.RETRYABLE, 503, null, "{}"),
                    Decision.retry(Duration.ofSeconds(1), "unavailable"),
                    now,
                    now,
                    null)));

    assertThat(held).containsExactly(false);
    Row untouched = OutboxRows.row(id);
    assertThat(untouched.status()).isEqualTo("in_flight");
    assertThat(untouched.leaseOwner()).isEqualTo("relay-failover");

    held =
        completions.complete(
            List.of(
                Completions.of(
                    second,
                    "relay-failover",
                    DeliveryResult.answered(Classification.SUCCESS, 200, null, "{}"),
                    Decision.delivered(),
                    now,
                    now,
                    null)));

    assertThat(held).containsExactly(true);
    assertThat(OutboxRows.status(id)).isEqualTo("delivered");
    assertThat(OutboxRows.attempts(id))
        .extracting(Attempt::attempt, Attempt::outcome)
        .containsExactly(tuple(1, "lease_lost"), tuple(1, "delivered"));
  }

  private static Instant leaseEnd(long id) {
    long micros =
        OutboxRows.longs(
                "SELECT (extract(epoch FROM lease_until) * 1000000)::bigint"
                    + " FROM outbox.outbox WHERE id = ?",
                id)
            .get(0);
    return Instant.EPOCH.plus(micros, java.time.temporal.ChronoUnit.MICROS);
  }
}
