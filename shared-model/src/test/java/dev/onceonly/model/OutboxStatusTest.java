package dev.onceonly.model;

import static dev.onceonly.model.OutboxStatus.CANCELLED;
import static dev.onceonly.model.OutboxStatus.DEAD;
import static dev.onceonly.model.OutboxStatus.DELIVERED;
import static dev.onceonly.model.OutboxStatus.IN_FLIGHT;
import static dev.onceonly.model.OutboxStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OutboxStatusTest {

  /** ARCHITECTURE.md §3: the whole transition table, so any added or removed edge fails here. */
  private static final Map<OutboxStatus, Set<OutboxStatus>> ALLOWED =
      Map.of(
          PENDING, EnumSet.of(IN_FLIGHT, CANCELLED),
          IN_FLIGHT, EnumSet.of(DELIVERED, PENDING, DEAD, IN_FLIGHT),
          DEAD, EnumSet.of(PENDING, CANCELLED),
          DELIVERED, EnumSet.noneOf(OutboxStatus.class),
          CANCELLED, EnumSet.noneOf(OutboxStatus.class));

  @Test
  void everyTransitionIsAllowedOnlyIfTheDesignAllowsIt() {
    for (OutboxStatus from : OutboxStatus.values()) {
      for (OutboxStatus to : OutboxStatus.values()) {
        assertThat(from.canMoveTo(to))
            .as("%s -> %s", from, to)
            .isEqualTo(ALLOWED.get(from).contains(to));
      }
      assertThat(from.next()).as("next of %s", from).isEqualTo(ALLOWED.get(from));
    }
  }

  @Test
  void pendingIsOnlyLeasedOrCancelled() {
    assertThat(PENDING.canMoveTo(IN_FLIGHT)).isTrue();
    assertThat(PENDING.canMoveTo(DELIVERED)).isFalse();
    assertThat(PENDING.canMoveTo(DEAD)).isFalse();
  }

  @Test
  void inFlightEndsDeliveredRetriedOrDeadOrIsReleasedAfterLeaseExpiry() {
    assertThat(IN_FLIGHT.next()).containsExactlyInAnyOrder(DELIVERED, PENDING, DEAD, IN_FLIGHT);
    assertThat(IN_FLIGHT.canMoveTo(CANCELLED)).isFalse();
  }

  @Test
  void deadGoesBackIntoDeliveryOnlyThroughPending() {
    assertThat(DEAD.canMoveTo(PENDING)).isTrue();
    assertThat(DEAD.canMoveTo(IN_FLIGHT)).isFalse();
    assertThat(DEAD.canMoveTo(DELIVERED)).isFalse();
    assertThat(DEAD.isFinal()).isFalse();
  }

  @Test
  void deliveredAndCancelledAreFinal() {
    assertThat(Arrays.stream(OutboxStatus.values()).filter(OutboxStatus::isFinal))
        .containsExactlyInAnyOrder(DELIVERED, CANCELLED);
    assertThat(DELIVERED.next()).isEmpty();
    assertThat(CANCELLED.canMoveTo(PENDING)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(OutboxStatus.class)
  void fromValueRoundTrips(OutboxStatus status) {
    assertThat(OutboxStatus.fromValue(status.value())).contains(status);
  }

  @Test
  void wireValuesAreSnakeCaseAndUnknownValuesAreEmpty() {
    assertThat(Arrays.stream(OutboxStatus.values()).map(OutboxStatus::value))
        .containsExactly("pending", "in_flight", "delivered", "dead", "cancelled");
    assertThat(OutboxStatus.fromValue("PENDING")).isEmpty();
    assertThat(OutboxStatus.fromValue("in-flight")).isEmpty();
    assertThat(OutboxStatus.fromValue(null)).isEmpty();
  }

  @Test
  void wireValuesAreExactlyThoseTheTableAccepts() {
    assertThat(OutboxSchemaTest.checkConstraintValues("status"))
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(OutboxStatus.values()).map(OutboxStatus::value).toList());
  }
}
