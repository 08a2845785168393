package dev.onceonly.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ParamsTest {

  @Test
  void textWithANulCharacterIsRefusedNamingTheParameter() {
    assertThatThrownBy(() -> Params.text("orderingKey", "a\u0000b"))
        .isInstanceOf(ProblemException.class)
        .hasMessageContaining("orderingKey contains a NUL character");
    assertThat(Params.text("orderingKey", "  ")).isNull();
    assertThat(Params.text("orderingKey", "customer:1")).isEqualTo("customer:1");
  }

  @Test
  void numbersOutOfRangeOrNotNumbersSayTheRange() {
    assertThat(Params.size(null, 50, 500)).isEqualTo(50);
    assertThat(Params.size(" 7 ", 50, 500)).isEqualTo(7);
    for (String bad : List.of("0", "501", "abc", "1.5")) {
      assertThatThrownBy(() -> Params.size(bad, 50, 500))
          .hasMessage("size must be a whole number from 1 to 500, was '" + bad + "'");
    }
    assertThatThrownBy(() -> Params.id("the outbox row id", "-3"))
        .hasMessage("the outbox row id must be a positive whole number, was '-3'");
  }

  @Test
  void timestampsNeedAnOffsetAndARangeMustNotBeEmpty() {
    assertThat(Params.timestamp("createdAfter", "2026-05-01T02:00:00+02:00"))
        .isEqualTo(Instant.parse("2026-05-01T00:00:00Z"));
    assertThatThrownBy(() -> Params.timestamp("createdAfter", "2026-05-01"))
        .hasMessageContaining("createdAfter must be an ISO-8601 timestamp with an offset");
    Instant t = Instant.parse("2026-05-01T00:00:00Z");
    assertThatThrownBy(() -> Params.range(t, t)).hasMessageContaining("must be earlier than");
  }

  @Test
  void oneOfListsTheChoicesInTheGivenOrder() {
    assertThatThrownBy(() -> Params.oneOf("status", "nope", List.of("pending", "dead")))
        .hasMessage("unknown status 'nope': use one of pending, dead");
  }

  @Test
  void anUnknownQueryParameterIsNamedWithTheKnownOnesAndThePagingHint() {
    assertThat(ParameterGuard.unknown("stauts", Set.of("status", "size")))
        .isEqualTo("unknown query parameter 'stauts': use size, status");
    assertThat(ParameterGuard.unknown("page", Set.of("cursor")))
        .endsWith("pages are keyset-based: pass cursor=<nextCursor of the previous page>");
    assertThat(ParameterGuard.unknown("x", Set.of()))
        .isEqualTo("unknown query parameter 'x': this endpoint takes no query parameters");
  }
}
