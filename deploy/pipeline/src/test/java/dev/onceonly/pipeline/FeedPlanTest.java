package dev.onceonly.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceonly.model.DecodedEvent;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.InvalidEventException;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.RewardRedeemed;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FeedPlanTest {

  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private final FeedPlan plan = FeedPlan.build(100, 400, 100, 7L, NOW);

  @Test
  void sameSeedBuildsTheSameStream() {
    FeedPlan again = FeedPlan.build(100, 400, 100, 7L, NOW);
    assertThat(bodies(again.stream())).containsExactlyElementsOf(bodies(plan.stream()));
    assertThat(again.summary()).isEqualTo(plan.summary());
  }

  @Test
  void summaryCountsEveryValidOrderCopyAndPairsPublishedTwice() throws Exception {
    List<Outgoing> copies = new ArrayList<>(plan.opening());
    copies.addAll(plan.stream());
    copies.addAll(plan.twins());
    copies.addAll(plan.twins());
    int orderCopies = 0;
    Set<String> orders = new HashSet<>();
    for (Outgoing m : copies) {
      if (m.routingKey().equals("order.completed") && decodes(m)) {
        orderCopies++;
        orders.add(((OrderCompleted) decode(m).event()).orderId());
      }
    }
    assertThat(orderCopies).isEqualTo(plan.summary().orderCopies());
    assertThat(orders).hasSize(plan.summary().uniqueOrders()).hasSize(400);
    assertThat(plan.twins()).hasSize(plan.summary().concurrentPairs()).isNotEmpty();
  }

  @Test
  void conflictingPayloadComesLastWithTheFirstOrdersKey() throws Exception {
    DecodedEvent first = decode(plan.opening().get(0));
    DecodedEvent conflicting = decode(plan.closing().get(0));
    assertThat(conflicting.event().messageKey()).isEqualTo(first.event().messageKey());
    assertThat(conflicting.payloadSha256()).isNotEqualTo(first.payloadSha256());
    assertThat(((OrderCompleted) first.event()).totalCents() / 100)
        .isEqualTo(plan.summary().conflictOriginalPoints());
  }

  /**
   * On Kafka the record carries the producer's id in header message-id and the customer as its key
   * (one customer's events of a type in one partition, in order): a copy has the copy's id.
   */
  @Test
  void everyEventCarriesItsOwnKeyAsTheProducersIdAndItsCustomerAsRecordKey() throws Exception {
    List<Outgoing> all = new ArrayList<>(plan.opening());
    all.addAll(plan.stream());
    all.addAll(plan.twins());
    all.addAll(plan.closing());
    all.addAll(plan.redemptions());
    int events = 0;
    for (Outgoing m : all) {
      if (decodes(m)) {
        DecodedEvent decoded = decode(m);
        assertThat(m.messageId()).isEqualTo(decoded.event().messageKey());
        assertThat(m.key()).isEqualTo(decoded.event().customerId());
        events++;
      } else {
        assertThat(m.messageId()).as("a body that is no event has an id of its own").isNotBlank();
      }
    }
    assertThat(events).isGreaterThan(plan.summary().orderCopies());
  }

  @Test
  void streamHoldsOnePoisonAndOneInvalidMessage() {
    List<String> problems = new ArrayList<>();
    for (Outgoing m : plan.stream()) {
      try {
        EventCodec.decode(m.routingKey(), m.body());
      } catch (InvalidEventException e) {
        problems.add(e.getMessage());
      }
    }
    assertThat(problems).hasSize(2);
    assertThat(problems).anyMatch(p -> p.contains("not valid JSON"));
    assertThat(problems).anyMatch(p -> p.contains("negative amount"));
  }

  @Test
  void coveredRedemptionsFitTheCreditsWhateverTheOrderAndUncoveredNeverDo() throws Exception {
    Map<String, Long> credits = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (Outgoing m : plan.stream()) {
      if (m.routingKey().equals("order.completed") && decodes(m)) {
        OrderCompleted o = (OrderCompleted) decode(m).event();
        if (seen.add(o.orderId())) {
          credits.merge(o.customerId(), o.totalCents() / 100, Long::sum);
        }
      }
    }
    for (Outgoing m : plan.opening()) {
      if (m.routingKey().equals("order.completed") && seen.add(decodeOrder(m).orderId())) {
        credits.merge(decodeOrder(m).customerId(), decodeOrder(m).totalCents() / 100, Long::sum);
      }
    }
    for (Outgoing m : plan.twins()) {
      OrderCompleted o = decodeOrder(m);
      if (seen.add(o.orderId())) {
        credits.merge(o.customerId(), o.totalCents() / 100, Long::sum);
      }
    }
    Map<String, Long> covered = new HashMap<>();
    Set<String> redemptions = new HashSet<>();
    int uncovered = 0;
    for (Outgoing m : plan.redemptions()) {
      RewardRedeemed r = (RewardRedeemed) decode(m).event();
      if (!redemptions.add(r.redemptionId())) {
        continue;
      }
      if (r.points() > credits.get(r.customerId())) {
        uncovered++;
      } else {
        covered.merge(r.customerId(), r.points(), Long::sum);
      }
    }
    covered.forEach(
        (customer, points) -> assertThat(points).isLessThanOrEqualTo(credits.get(customer)));
    assertThat(covered).hasSize(plan.summary().redemptionsCovered());
    assertThat(uncovered).isEqualTo(plan.summary().redemptionsUncovered()).isPositive();
    credits.forEach(
        (customer, points) ->
            assertThat(plan.summary().expectedBalances().get(customer))
                .isEqualTo(points - covered.getOrDefault(customer, 0L)));
  }

  @Test
  void tooFewCustomersAreRefused() {
    assertThatThrownBy(() -> FeedPlan.build(5, 100, 100, 1L, NOW))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void hotCustomerTakesItsShareOfTheOrdersAndEveryCustomerKeepsOne() throws Exception {
    FeedPlan hot = FeedPlan.build(100, 400, 100, 7L, NOW, 0.5);
    Map<String, Integer> ordersByCustomer = new HashMap<>();
    Set<String> seen = new HashSet<>();
    List<Outgoing> all = new ArrayList<>(hot.opening());
    all.addAll(hot.stream());
    all.addAll(hot.twins());
    for (Outgoing m : all) {
      if (m.routingKey().equals("order.completed") && decodes(m)) {
        OrderCompleted order = decodeOrder(m);
        if (seen.add(order.orderId())) {
          ordersByCustomer.merge(order.customerId(), 1, Integer::sum);
        }
      }
    }
    // 300 orders after the first round, about half of them hot: 150 ± 35 (5 standard deviations)
    assertThat(ordersByCustomer.get("cust-0000")).isBetween(1 + 115, 1 + 185);
    assertThat(ordersByCustomer).hasSize(100);
    assertThat(hot.summary().expectedBalances().get("cust-0000"))
        .isGreaterThan(plan.summary().expectedBalances().get("cust-0000"));
    assertThatThrownBy(() -> FeedPlan.build(100, 400, 100, 7L, NOW, 1.0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static boolean decodes(Outgoing m) {
    try {
      EventCodec.decode(m.routingKey(), m.body());
      return true;
    } catch (InvalidEventException e) {
      return false;
    }
  }

  private static DecodedEvent decode(Outgoing m) throws InvalidEventException {
    return EventCodec.decode(m.routingKey(), m.body());
  }

  private static OrderCompleted decodeOrder(Outgoing m) throws InvalidEventException {
    return (OrderCompleted) decode(m).event();
  }

  private static List<String> bodies(List<Outgoing> messages) {
    return messages.stream().map(m -> new String(m.body())).toList();
  }
}
