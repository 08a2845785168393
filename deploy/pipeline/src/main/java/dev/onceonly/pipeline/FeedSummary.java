package dev.onceonly.pipeline;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the feed sent, written to a JSON file for the verifier: counts, the order ids, and the
 * balances and profile versions that the sent stream implies. Nothing in it is a result: every
 * expectation follows from the messages published.
 *
 * @param seed the seed the stream was built from ({@code --seed} replays it)
 * @param customers customers that completed orders
 * @param uniqueOrders distinct valid orders (the conflict's order included, counted once)
 * @param orderCopies every valid copy of those orders, pairs published at once included
 * @param concurrentPairs orders whose copies were published from two channels at the same time
 * @param conflictOrderId the order republished last with another total (a conflict)
 * @param conflictOriginalPoints the points its first payload is worth, the one that must count
 * @param poisonMessages bodies that are not JSON, on {@code order.completed}
 * @param invalidMessages decodable events with a negative amount, on {@code order.completed}
 * @param invalidOrderId the order id the invalid event carries (it must never be claimed)
 * @param redemptionsCovered redemptions the balance covers: each must debit and pay out once
 * @param redemptionsUncovered redemptions larger than the whole balance: each must be rejected
 * @param redemptionCopies every copy of the redemptions published
 * @param payoutCentsCovered the money the covered redemptions pay out, in cents
 * @param profileMessages profile versions published, out of order and with copies
 * @param returnedMessages messages the broker could not route (must be 0)
 * @param orderIds the valid orders sent
 * @param expectedBalances per customer: credits of its orders minus its covered redemptions
 * @param expectedProfileVersions per customer: the highest profile version sent
 */
public record FeedSummary(
    long seed,
    int customers,
    int uniqueOrders,
    int orderCopies,
    int concurrentPairs,
    String conflictOrderId,
    long conflictOriginalPoints,
    int poisonMessages,
    int invalidMessages,
    String invalidOrderId,
    int redemptionsCovered,
    int redemptionsUncovered,
    int redemptionCopies,
    long payoutCentsCovered,
    int profileMessages,
    int returnedMessages,
    List<String> orderIds,
    Map<String, Long> expectedBalances,
    Map<String, Long> expectedProfileVersions) {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** Deliveries the loyalty consumer must decide: orders, the conflict, bad bodies, redemptions. */
  public int loyaltyDeliveries() {
    return orderDeliveries() + redemptionCopies;
  }

  /** Deliveries on {@code order.completed}, which both loyalty and receipts consume. */
  public int orderDeliveries() {
    return orderCopies + 1 + poisonMessages + invalidMessages;
  }

  public int uniqueRedemptions() {
    return redemptionsCovered + redemptionsUncovered;
  }

  public FeedSummary withReturned(int returned) {
    return new FeedSummary(
        seed,
        customers,
        uniqueOrders,
        orderCopies,
        concurrentPairs,
        conflictOrderId,
        conflictOriginalPoints,
        poisonMessages,
        invalidMessages,
        invalidOrderId,
        redemptionsCovered,
        redemptionsUncovered,
        redemptionCopies,
        payoutCentsCovered,
        profileMessages,
        returned,
        orderIds,
        expectedBalances,
        expectedProfileVersions);
  }

  void write(Path file) throws IOException {
    JSON.writeValue(file.toFile(), this);
  }

  static FeedSummary read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), FeedSummary.class);
  }
}
