package dev.onceonly.internal.intake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/** The bound on a Kafka consumer's records in hand: the connector waits at the limit. */
class InFlightTest {

  @Test
  void answersAtOnceBelowTheLimitAndWhenOneLeavesAtIt() {
    InFlight limit = new InFlight(3);
    assertThat(limit.enter().toCompletableFuture()).isDone();
    assertThat(limit.enter().toCompletableFuture()).isDone();
    CompletionStage<Void> third = limit.enter();
    assertThat(third.toCompletableFuture()).as("three in hand: the next waits").isNotDone();
    assertThat(limit.inHand()).isEqualTo(3);

    limit.leave();
    assertThat(third.toCompletableFuture()).as("one settled: room for the next").isDone();
    assertThat(limit.inHand()).isEqualTo(2);
  }

  @Test
  void aLimitOfOneTakesOneRecordAtATime() {
    InFlight limit = new InFlight(1);
    CompletionStage<Void> first = limit.enter();
    assertThat(first.toCompletableFuture()).isNotDone();
    limit.leave();
    assertThat(first.toCompletableFuture()).isDone();
    assertThat(limit.inHand()).isZero();
  }

  @Test
  void refusesALimitBelowOne() {
    assertThatThrownBy(() -> new InFlight(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
