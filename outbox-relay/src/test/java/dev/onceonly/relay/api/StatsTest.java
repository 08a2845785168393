package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /outbox/stats} over rows of a kind this relay does not deliver (so they stay as
 * written), which makes its per-kind numbers exact while other tests' rows come and go.
 */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class StatsTest {

  private final String kind = "stats_probe_" + OutboxRows.uniquePrefix("k").replace("-", "_");

  @AfterEach
  void removeProbeRows() {
    OutboxRows.longs("DELETE FROM outbox.outbox WHERE kind = ?", kind);
  }

  @Test
  void countsByStatusAndKindOldestAgeParkedKeysAndRecentDeliveries() {
    String prefix = OutboxRows.uniquePrefix("stats");
    String parked = prefix + "parked";
    String flowing = prefix + "flowing";
    long parkingRow = insert(prefix + "1", parked, "dead");
    insert(prefix + "2", parked, "pending");
    insert(prefix + "3", flowing, "pending");
    insert(prefix + "4", flowing, "dead"); // behind a pending row: that key is not parked
    insert(prefix + "5", null, "delivered");
    long oldDelivery = insert(prefix + "6", null, "delivered");
    insert(prefix + "7", null, "cancelled");
    OutboxRows.longs(
        "UPDATE outbox.outbox SET delivered_at = now() - interval '5 minutes' WHERE id = ?",
        oldDelivery);
    OutboxRows.longs(
        "UPDATE outbox.outbox SET created_at = now() - interval '2 hours' WHERE kind = ? AND status = 'pending'",
        kind);

    JsonPath stats = Api.viewer().get("/outbox/stats").then().statusCode(200).extract().jsonPath();

    Map<String, Integer> ofKind = stats.getMap("byKind." + kind);
    assertThat(ofKind)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("pending", 2, "in_flight", 0, "delivered", 2, "dead", 2, "cancelled", 1));
    assertThat(stats.getMap("byStatus"))
        .containsOnlyKeys("pending", "in_flight", "delivered", "dead", "cancelled");
    assertThat(stats.getLong("byStatus.dead")).isGreaterThanOrEqualTo(2);
    assertThat(stats.getDouble("oldestPendingAgeSeconds")).isGreaterThanOrEqualTo(7200);
    List<Map<String, Object>> parkedKeys = stats.getList("parkedOrderingKeys");
    assertThat(parkedKeys)
        .filteredOn(p -> kind.equals(p.get("kind")))
        .containsExactly(
            Map.of("orderingKey", parked, "deadRowId", (int) parkingRow, "kind", kind));
    assertThat(stats.getLong("parkedOrderingKeysTotal")).isGreaterThanOrEqualTo(1);
    assertThat(stats.getInt("deliveriesLastMinuteByKind." + kind)).isEqualTo(1);
    assertThat(stats.getLong("deliveriesLastMinute")).isGreaterThanOrEqualTo(1);
  }

  private long insert(String key, String orderingKey, String status) {
    return OutboxRows.insertAs(new NewRow(kind, "{}", key, orderingKey), status);
  }
}
