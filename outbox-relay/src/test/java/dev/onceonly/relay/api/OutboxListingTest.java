package dev.onceonly.relay.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.relay.support.Api;
import dev.onceonly.relay.support.OutboxRows;
import dev.onceonly.relay.support.OutboxRows.NewRow;
import dev.onceonly.relay.support.OutboxTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code GET /outbox}: filters, order and keyset pages that never repeat or skip a row. */
@QuarkusTest
@QuarkusTestResource(value = OutboxTestResource.class, restrictToAnnotatedClass = false)
class OutboxListingTest {

  /** A kind this relay does not deliver: the rows stay as written while they are listed. */
  private static final String KIND = "paging_probe";

  private static final int INITIAL_ROWS = 60;
  private static final int MAX_CONCURRENT_ROWS = 200;

  @Test
  void pagesReturnEveryRowExactlyOnceWhileRowsAreBeingInserted() throws Exception {
    String prefix = OutboxRows.uniquePrefix("paging");
    String group = prefix + "group";
    List<Long> initial =
        OutboxRows.insert(
            IntStream.range(0, INITIAL_ROWS).mapToObj(i -> row(prefix + "a" + i, group)).toList());
    List<Long> inserted = new CopyOnWriteArrayList<>();
    AtomicBoolean paging = new AtomicBoolean(true);
    ExecutorService writer = Executors.newSingleThreadExecutor();
    Future<?> writing =
        writer.submit(
            () -> {
              for (int i = 0; paging.get() && inserted.size() < MAX_CONCURRENT_ROWS; i++) {
                inserted.addAll(
                    OutboxRows.insert(
                        List.of(
                            row(prefix + "b" + i + "x", group),
                            row(prefix + "b" + i + "y", group))));
              }
            });
    List<Long> oldest;
    List<Long> newest;
    try {
      oldest = pageThrough(group, "oldest", inserted);
      newest = pageThrough(group, "newest", inserted);
    } finally {
      paging.set(false);
      writing.get(30, TimeUnit.SECONDS);
      writer.shutdown();
      OutboxRows.deleteKeysStartingWith(prefix);
    }

    assertThat(oldest).doesNotHaveDuplicates().isSorted().containsAll(initial);
    long lastSeen = oldest.get(oldest.size() - 1);
    // One writer commits in id order: every row it inserted up to the last one seen was listed.
    assertThat(oldest)
        .containsAll(inserted.stream().filter(id -> id <= lastSeen).toList())
        .allMatch(id -> initial.contains(id) || inserted.contains(id));
    assertThat(newest).doesNotHaveDuplicates().containsAll(initial);
    List<Long> descending = new ArrayList<>(newest);
    descending.sort((a, b) -> Long.compare(b, a));
    assertThat(newest).isEqualTo(descending);
    assertThat(inserted).as("rows inserted while paging").isNotEmpty();
  }

  private static NewRow row(String key, String group) {
    return new NewRow(KIND, "{}", key, group);
  }

  private static boolean writing(int inserted) {
    return inserted < MAX_CONCURRENT_ROWS;
  }

  /** Pages with size 7, waiting between pages until the writer has inserted more rows. */
  private List<Long> pageThrough(String group, String order, List<Long> inserted) {
    List<Long> seen = new ArrayList<>();
    String cursor = null;
    do {
      int before = inserted.size();
      JsonPath page =
          Api.viewer()
              .queryParam("orderingKey", group)
              .queryParam("order", order)
              .queryParam("size", 7)
              .queryParams(cursor == null ? Map.of() : Map.of("cursor", cursor))
              .get("/outbox")
              .then()
              .statusCode(200)
              .extract()
              .jsonPath();
      List<Long> ids = page.getList("items.id", Long.class);
      assertThat(ids).hasSizeLessThanOrEqualTo(7);
      seen.addAll(ids);
      Object next = page.get("nextCursor");
      cursor = next == null ? null : next.toString();
      if (cursor != null && writing(before)) {
        await().atMost(Duration.ofSeconds(10)).until(() -> inserted.size() > before);
      }
    } while (cursor != null);
    return seen;
  }

  @Test
  void filtersByStatusKindKeysAndCreationTime() {
    String prefix = OutboxRows.uniquePrefix("filters");
    String group = prefix + "group";
    long deadReceipt = OutboxRows.insertAs(OutboxRows.receipt(prefix + "r1", group), "dead");
    long deadPayout =
        OutboxRows.insertAs(
            new NewRow("issue_payout", "{\"amount\":1}", prefix + "p1", group), "dead");
    Instant between = OutboxRows.databaseNow();
    long waiting = OutboxRows.insertAs(OutboxRows.receipt(prefix + "r2", group), "pending", 3600);

    assertThat(ids("orderingKey", group, "status", "dead"))
        .containsExactly(deadPayout, deadReceipt);
    assertThat(ids("orderingKey", group, "kind", "issue_payout")).containsExactly(deadPayout);
    assertThat(ids("idempotencyKey", prefix + "r2")).containsExactly(waiting);
    assertThat(ids("orderingKey", group, "createdBefore", between.toString()))
        .containsExactly(deadPayout, deadReceipt);
    assertThat(ids("orderingKey", group, "createdAfter", between.toString()))
        .containsExactly(waiting);
    assertThat(ids("orderingKey", group, "order", "oldest"))
        .containsExactly(deadReceipt, deadPayout, waiting);
    assertThat(ids("orderingKey", group)).containsExactly(waiting, deadPayout, deadReceipt);
    OutboxRows.deleteKeysStartingWith(prefix);
  }

  private static List<Long> ids(String... nameValues) {
    var request = Api.viewer();
    for (int i = 0; i < nameValues.length; i += 2) {
      request = request.queryParam(nameValues[i], nameValues[i + 1]);
    }
    List<Long> ids =
        request
            .get("/outbox")
            .then()
            .statusCode(200)
            .extract()
            .jsonPath()
            .getList("items.id", Long.class);
    Set<Long> unique = new HashSet<>(ids);
    assertThat(unique).hasSameSizeAs(ids);
    return ids;
  }
}
