package dev.onceonly.pipeline;

import dev.onceonly.model.CustomerProfileChanged;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.LoyaltyEvent;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.model.RewardRedeemed;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The stream the feed publishes, built from a seed (same seed, same stream). Phase 1: {@code
 * opening} (the conflict's order and some newest profile versions, first), {@code stream} (shuffled
 * copies of the orders, profile versions, a poison and an invalid message), {@code twins} (each
 * published from two channels at once) and {@code closing} (the conflicting payload, last). Phase
 * 2, once the loyalty consumer has credited phase 1: {@code redemptions}.
 */
public record FeedPlan(
    List<Outgoing> opening,
    List<Outgoing> stream,
    List<Outgoing> twins,
    List<Outgoing> closing,
    List<Outgoing> redemptions,
    FeedSummary summary) {

  public static FeedPlan build(
      int customers, int orders, int centsPerPoint, long seed, Instant now) {
    return build(customers, orders, centsPerPoint, seed, now, 0);
  }

  /**
   * As {@link #build(int, int, int, long, Instant)}, with a hot customer: each order after the
   * first round goes to {@code cust-0000} with probability {@code hotShare} (0 = round-robin only).
   */
  public static FeedPlan build(
      int customers, int orders, int centsPerPoint, long seed, Instant now, double hotShare) {
    if (customers < 20 || orders < customers) {
      throw new IllegalArgumentException("need at least 20 customers and one order per customer");
    }
    if (hotShare < 0 || hotShare >= 1) {
      throw new IllegalArgumentException("hotShare must be in [0, 1), was " + hotShare);
    }
    return new Builder(customers, centsPerPoint, seed, now, hotShare).build(orders);
  }

  static String customer(int index) {
    return String.format("cust-%04d", index);
  }

  /** Accumulates the messages and what they imply while the plan is drawn. */
  private static final class Builder {

    private static final String CURRENCY = "EUR";
    private static final String[] TIERS = {"bronze", "silver", "gold"};

    /** Share of orders whose copies are published from two channels at the same moment. */
    private static final double TWIN_SHARE = 0.1;

    private final int customers;
    private final int centsPerPoint;
    private final double hotShare;
    private final long seed;
    private final Random rnd;
    private final Instant at;
    private final List<Outgoing> opening = new ArrayList<>();
    private final List<Outgoing> stream = new ArrayList<>();
    private final List<Outgoing> twins = new ArrayList<>();
    private final List<Outgoing> redemptions = new ArrayList<>();
    private final List<String> orderIds = new ArrayList<>();
    private final TreeMap<String, Long> balances = new TreeMap<>();
    private final TreeMap<String, Long> profiles = new TreeMap<>();
    private int orderCopies;
    private int profileMessages;
    private int covered;
    private int uncovered;
    private int redemptionCopies;
    private long payoutCents;

    Builder(int customers, int centsPerPoint, long seed, Instant now, double hotShare) {
      this.customers = customers;
      this.centsPerPoint = centsPerPoint;
      this.hotShare = hotShare;
      this.seed = seed;
      this.rnd = new Random(seed);
      this.at = now.truncatedTo(ChronoUnit.MILLIS);
    }

    FeedPlan build(int orders) {
      OrderCompleted first = orders(orders);
      OrderCompleted conflicting =
          new OrderCompleted(
              uuid(),
              first.orderId(),
              first.customerId(),
              first.customerEmail(),
              first.totalCents() + 1_234,
              CURRENCY,
              first.occurredAt());
      OrderCompleted invalid =
          new OrderCompleted(
              uuid(), "ord-invalid", customer(1), "x@example.com", -500, CURRENCY, at);
      stream.add(message(invalid));
      stream.add(
          new Outgoing(
              "order.completed",
              "{\"eventId\": \"poison, not JSON".getBytes(StandardCharsets.UTF_8),
              "poison-1",
              customer(1)));
      profiles();
      Collections.shuffle(stream, rnd);
      redemptions();
      Collections.shuffle(redemptions, rnd);
      FeedSummary summary =
          new FeedSummary(
              seed,
              customers,
              orders,
              orderCopies,
              twins.size(),
              first.orderId(),
              first.totalCents() / centsPerPoint,
              1,
              1,
              invalid.orderId(),
              covered,
              uncovered,
              redemptionCopies,
              payoutCents,
              profileMessages,
              0,
              List.copyOf(orderIds),
              balances,
              profiles);
      return new FeedPlan(
          opening, stream, twins, List.of(message(conflicting)), redemptions, summary);
    }

    /**
     * Orders round-robin over the customers (every customer has one), or to the hot customer for a
     * share of those after the first round; 1 to 3 copies each; returns the first order.
     */
    private OrderCompleted orders(int orders) {
      OrderCompleted first = null;
      for (int i = 0; i < orders; i++) {
        boolean hot = hotShare > 0 && i >= customers && rnd.nextDouble() < hotShare;
        String customer = customer(hot ? 0 : i % customers);
        OrderCompleted order =
            new OrderCompleted(
                uuid(),
                String.format("ord-%05d", i),
                customer,
                customer + "@example.com",
                500 + rnd.nextInt(19_500),
                CURRENCY,
                at.minusSeconds(rnd.nextInt(7 * 24 * 3600)));
        orderIds.add(order.orderId());
        balances.merge(customer, order.totalCents() / centsPerPoint, Long::sum);
        Outgoing message = message(order);
        if (i == 0) {
          first = order;
          orderCopies += add(opening, message, 2);
        } else if (rnd.nextDouble() < TWIN_SHARE) {
          twins.add(message);
          orderCopies += 2 + add(stream, message, rnd.nextInt(2));
        } else {
          orderCopies += add(stream, message, 1 + rnd.nextInt(3));
        }
      }
      return first;
    }

    /** Every tenth customer gets versions 1..3, with copies; every twentieth newest first. */
    private void profiles() {
      for (int c = 0; c < customers; c += 10) {
        String customer = customer(c);
        for (int v = 1; v <= TIERS.length; v++) {
          Outgoing version =
              message(
                  new CustomerProfileChanged(
                      uuid(), customer, v, TIERS[v - 1], customer + "@example.com", at));
          boolean newestFirst = v == TIERS.length && c % 20 == 0;
          profileMessages += add(newestFirst ? opening : stream, version, 1 + rnd.nextInt(2));
        }
        profiles.put(customer, (long) TIERS.length);
      }
    }

    /**
     * Two customers in three redeem half their balance (covered whatever the order); one in twenty
     * also asks for more than the whole balance (rejected whatever the order).
     */
    private void redemptions() {
      for (int c = 0; c < customers; c++) {
        String customer = customer(c);
        long balance = balances.get(customer);
        if (c % 3 != 2) {
          long points = Math.max(1, balance / 2);
          RewardRedeemed r = redemption(String.format("rdm-%05d", c), customer, points);
          balances.put(customer, balance - points);
          payoutCents += r.payoutCents();
          covered++;
        }
        if (c % 20 == 7) {
          redemption(String.format("rdm-over-%05d", c), customer, balance + 50 + rnd.nextInt(100));
          uncovered++;
        }
      }
    }

    private RewardRedeemed redemption(String id, String customer, long points) {
      RewardRedeemed r = new RewardRedeemed(uuid(), id, customer, points, points * 5, CURRENCY, at);
      redemptionCopies += add(redemptions, message(r), 1 + rnd.nextInt(2));
      return r;
    }

    private static int add(List<Outgoing> to, Outgoing message, int copies) {
      for (int k = 0; k < copies; k++) {
        to.add(message);
      }
      return copies;
    }

    private static Outgoing message(LoyaltyEvent event) {
      return new Outgoing(
          event.type().routingKey(),
          EventCodec.encode(event),
          event.messageKey(),
          event.customerId());
    }

    private UUID uuid() {
      return new UUID(rnd.nextLong(), rnd.nextLong());
    }
  }
}
