package dev.onceonly.relay.completion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.metrics.RelayMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A batch of completions that the database refuses is written one by one, so the completion that
 * caused it cannot cost the others their write (they would be sent again once their leases expire).
 */
class CompleterTest {

  private final List<List<Long>> writes = new ArrayList<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** Refuses every write that contains row 13, like a statement failing on one bad value. */
  private final CompletionRepository repository =
      new CompletionRepository(null) {
        @Override
        public boolean[] complete(List<Completion> completions) {
          List<Long> ids = completions.stream().map(c -> c.row().id()).toList();
          if (ids.contains(13L)) {
            throw new IllegalStateException("value out of range for row 13");
          }
          writes.add(ids);
          boolean[] held = new boolean[ids.size()];
          java.util.Arrays.fill(held, true);
          return held;
        }
      };

  @Test
  void oneRefusedCompletionDoesNotSinkItsBatch() {
    Completer completer = new Completer(repository, new RelayMetrics(registry, List.of()));

    completer.complete(List.of(delivered(11), delivered(12), delivered(13), delivered(14)));

    assertThat(writes).containsExactly(List.of(11L), List.of(12L), List.of(14L));
    assertThat(
            registry
                .get("onceonly.relay.deliveries")
                .tag("destination", "send_receipt")
                .tag("outcome", "delivered")
                .counter()
                .count())
        .isEqualTo(3.0);
  }

  @Test
  void aBatchTheDatabaseTakesIsWrittenInOneGo() {
    Completer completer = new Completer(repository, new RelayMetrics(registry, List.of()));

    completer.complete(List.of(delivered(21), delivered(22)));

    assertThat(writes).containsExactly(List.of(21L, 22L));
  }

  private static Completion delivered(long id) {
    Instant now = Instant.now();
    LeasedRow row =
        new LeasedRow(id, "send_receipt", "{}", "key-" + id, null, 1, 1, now, null, null);
    return new Completion(
        row, "relay-test", Outcome.DELIVERED, Duration.ZERO, 200, null, null, now, now, null, true);
  }
}
