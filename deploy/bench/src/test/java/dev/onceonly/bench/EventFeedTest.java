package dev.onceonly.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.model.EventCodec;
import dev.onceonly.model.InvalidEventException;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EventFeedTest {

  private final EventFeed feed =
      new EventFeed("run", "main", Instant.parse("2026-12-02T00:00:00Z"), 100);

  @Test
  void everyPoisonBodyIsRefusedByTheConsumersDecoder() {
    byte[][] poison = feed.poisonBodies(10);

    assertThat(poison.length).isEqualTo(10);
    for (byte[] body : poison) {
      assertThatThrownBy(() -> EventCodec.decode("order.completed", body))
          .isInstanceOf(InvalidEventException.class);
    }
  }

  @Test
  void poisonIsHalfNotJsonAndHalfANegativeAmount() {
    assertThat(new String(feed.poison(0))).startsWith("not JSON");
    assertThat(new String(feed.poison(1)))
        .contains("\"totalCents\":-" + feed.event(1).totalCents());
  }

  @Test
  void poisonedSeriesIsTheEventsInOrderWithATenthOfThemInvalid() throws Exception {
    byte[][] bodies = feed.bodiesWithPoison(27);

    assertThat(bodies.length).isEqualTo(30);
    int healthy = 0;
    int invalid = 0;
    for (byte[] body : bodies) {
      try {
        EventCodec.decode("order.completed", body);
        assertThat(body).isEqualTo(feed.body(healthy));
        healthy++;
      } catch (InvalidEventException e) {
        invalid++;
      }
    }
    assertThat(healthy).isEqualTo(27);
    assertThat(invalid).isEqualTo(3);
    assertThat(Arrays.copyOfRange(bodies, 0, 9)).isEqualTo(feed.bodies(9));
  }
}
