package dev.onceonly.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Iterator;
import java.util.UUID;
import java.util.stream.Stream;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EventCodecTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static final String ORDER =
      """
      {"eventId":"3f1c2a4e-8d7b-4a5b-9c3d-2e6f7a8b9c0d","orderId":"9912","customerId":"c-42",
       "customerEmail":"ada@example.com","totalCents":12345,"currency":"EUR",
       "occurredAt":"2024-05-01T10:15:30Z"}
      """;
  static final String REWARD =
      """
      {"eventId":"0b9e6f0a-1c2d-4e3f-8a9b-0c1d2e3f4a5b","redemptionId":"r_77","customerId":"c-42",
       "points":500,"payoutCents":250,"currency":"USD","occurredAt":"2024-05-02T08:00:00.123Z"}
      """;
  static final String PROFILE =
      """
      {"eventId":"7c6b5a49-3827-4615-a4b3-c2d1e0f9a8b7","customerId":"c-42","version":3,
       "tier":"gold","email":"ada.l@example.org","occurredAt":"2024-05-03T23:59:59+02:00"}
      """;

  @Test
  void decodesOrderCompletedFromContractJson() throws Exception {
    DecodedEvent decoded = decode("order.completed", ORDER);

    assertThat(decoded.event())
        .isEqualTo(
            new OrderCompleted(
                UUID.fromString("3f1c2a4e-8d7b-4a5b-9c3d-2e6f7a8b9c0d"),
                "9912",
                "c-42",
                "ada@example.com",
                12345,
                "EUR",
                Instant.parse("2024-05-01T10:15:30Z")));
    assertThat(decoded.payloadSha256()).isEqualTo(PayloadFingerprint.sha256(JSON.readTree(ORDER)));
  }

  @Test
  void decodesRewardRedeemedFromContractJson() throws Exception {
    assertThat(decode("reward.redeemed", REWARD).event())
        .isEqualTo(
            new RewardRedeemed(
                UUID.fromString("0b9e6f0a-1c2d-4e3f-8a9b-0c1d2e3f4a5b"),
                "r_77",
                "c-42",
                500,
                250,
                "USD",
                Instant.parse("2024-05-02T08:00:00.123Z")));
  }

  @Test
  void decodesCustomerProfileChangedAndNormalisesOffsetTimestampToUtc() throws Exception {
    assertThat(decode("customer.profile-changed", PROFILE).event())
        .isEqualTo(
            new CustomerProfileChanged(
                UUID.fromString("7c6b5a49-3827-4615-a4b3-c2d1e0f9a8b7"),
                "c-42",
                3,
                "gold",
                "ada.l@example.org",
                Instant.parse("2024-05-03T21:59:59Z")));
  }

  static Stream<LoyaltyEvent> events() {
    return Stream.of(
        new OrderCompleted(
            UUID.randomUUID(),
            "o.1",
            "c-1",
            "a@b.io",
            0,
            "JPY",
            Instant.parse("2024-01-01T00:00:00Z")),
        new RewardRedeemed(
            UUID.randomUUID(), "r-9", "c-2", 1, 0, "GBP", Instant.ofEpochSecond(1, 123_456_789)),
        new CustomerProfileChanged(
            UUID.randomUUID(), "c-3", Long.MAX_VALUE, "silver", "x@y.de", Instant.now()));
  }

  @ParameterizedTest
  @MethodSource("events")
  void encodeThenDecodeRoundTrips(LoyaltyEvent event) throws Exception {
    DecodedEvent decoded = EventCodec.decode(event.type().routingKey(), EventCodec.encode(event));

    assertThat(decoded.event()).isEqualTo(event);
    assertThat(decoded.payloadSha256())
        .isEqualTo(PayloadFingerprint.sha256(JSON.readTree(EventCodec.encode(event))));
  }

  @ParameterizedTest
  @ValueSource(strings = {"order.completed", "reward.redeemed", "customer.profile-changed"})
  void encodeWritesExactlyTheCamelCaseContractFields(String routingKey) throws Exception {
    String contract = contractBody(routingKey);
    JsonNode encoded = JSON.readTree(EventCodec.encode(decode(routingKey, contract).event()));

    assertThat(fieldNames(encoded).toList())
        .containsExactlyInAnyOrderElementsOf(fieldNames(JSON.readTree(contract)).toList());
  }

  @Test
  void encodeWritesOccurredAtAsIso8601Utc() throws Exception {
    LoyaltyEvent profile = decode("customer.profile-changed", PROFILE).event();

    assertThat(JSON.readTree(EventCodec.encode(profile)).get("occurredAt").asText())
        .isEqualTo("2024-05-03T21:59:59Z");
  }

  static Stream<Arguments> everyField() throws Exception {
    return Stream.of(
            Arguments.of("order.completed", ORDER),
            Arguments.of("reward.redeemed", REWARD),
            Arguments.of("customer.profile-changed", PROFILE))
        .flatMap(
            a -> {
              String body = (String) a.get()[1];
              try {
                return fieldNames(JSON.readTree(body)).map(f -> Arguments.of(a.get()[0], body, f));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
  }

  @ParameterizedTest(name = "{0} without {2}")
  @MethodSource("everyField")
  void missingFieldIsNamed(String routingKey, String body, String field) throws Exception {
    ObjectNode json = (ObjectNode) JSON.readTree(body);
    json.remove(field);
    assertRefused(routingKey, json.toString()).hasMessage("missing field '" + field + "'");

    json.putNull(field);
    assertRefused(routingKey, json.toString()).hasMessage("missing field '" + field + "'");
  }

  @Test
  void negativeAmountNamesTheField() {
    assertRefused("order.completed", with(ORDER, "totalCents", -1))
        .hasMessageContaining("negative amount")
        .hasMessageContaining("'totalCents'")
        .hasMessageContaining("-1");
    assertRefused("reward.redeemed", with(REWARD, "payoutCents", -250))
        .hasMessageContaining("negative amount in field 'payoutCents'");
    assertRefused("reward.redeemed", with(REWARD, "points", -5))
        .hasMessage("negative amount in field 'points': -5 (must be 1 or more)");
  }

  @Test
  void zeroPointsAndVersionZeroAreRefusedWithTheMinimum() {
    assertRefused("reward.redeemed", with(REWARD, "points", 0))
        .hasMessage("field 'points' was 0 (must be 1 or more)");
    assertRefused("customer.profile-changed", with(PROFILE, "version", 0))
        .hasMessage("field 'version' was 0 (must be 1 or more)");
  }

  @Test
  void amountsMustBeWholeNumbers() {
    assertRefused("order.completed", with(ORDER, "totalCents", "12345"))
        .hasMessage("field 'totalCents' must be a whole number");
    assertRefused("order.completed", with(ORDER, "totalCents", 123.45))
        .hasMessage("field 'totalCents' must be a whole number");
    assertRefused("order.completed", ORDER.replace("12345", "99999999999999999999"))
        .hasMessage("field 'totalCents' must be a whole number");
  }

  @ParameterizedTest
  @ValueSource(strings = {"order 9912", "", "  ", "ord/1", "o:1"})
  void badOrderIdIsRefusedWithTheRule(String orderId) {
    assertRefused("order.completed", with(ORDER, "orderId", orderId))
        .hasMessageContaining("'orderId'");
  }

  @Test
  void orderIdLongerThan64IsRefusedAnd64IsAccepted() throws Exception {
    assertRefused("order.completed", with(ORDER, "orderId", "x".repeat(65)))
        .hasMessage(
            "bad id in field 'orderId': '"
                + "x".repeat(65)
                + "' (1-64 letters, digits, '.', '_' or '-')");
    assertThat(decode("order.completed", with(ORDER, "orderId", "x".repeat(64))).event())
        .extracting(LoyaltyEvent::messageKey)
        .isEqualTo("order-completed:" + "x".repeat(64));
  }

  @ParameterizedTest
  @ValueSource(strings = {"not-a-uuid", "1-2-3-4-5", "3f1c2a4e8d7b4a5b9c3d2e6f7a8b9c0d"})
  void eventIdMustBeAUuid(String eventId) {
    assertRefused("reward.redeemed", with(REWARD, "eventId", eventId))
        .hasMessage("bad id in field 'eventId': not a UUID: '" + eventId + "'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"eur", "EURO", "E1R", "€"})
  void currencyMustBeAnIsoCode(String currency) {
    assertRefused("order.completed", with(ORDER, "currency", currency))
        .hasMessage(
            "field 'currency' must be a three-letter ISO 4217 code, was '" + currency + "'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ada", "ada@example", "ada @example.com", "a@b@c.com"})
  void emailMustBeAnAddress(String email) {
    assertRefused("order.completed", with(ORDER, "customerEmail", email))
        .hasMessage("field 'customerEmail' is not an e-mail address");
    assertRefused("customer.profile-changed", with(PROFILE, "email", email))
        .hasMessage("field 'email' is not an e-mail address");
  }

  @ParameterizedTest
  @ValueSource(strings = {"yesterday", "2024-05-01 10:15:30Z", "2024-05-01T10:15:30", "2024-13-01"})
  void occurredAtMustBeIso8601WithZone(String occurredAt) {
    assertRefused("order.completed", with(ORDER, "occurredAt", occurredAt))
        .hasMessage("field 'occurredAt' is not an ISO-8601 timestamp: '" + occurredAt + "'");
  }

  @Test
  void textFieldsMustBeStrings() {
    assertRefused("customer.profile-changed", with(PROFILE, "tier", 7))
        .hasMessage("field 'tier' must be a non-empty string");
    assertRefused("customer.profile-changed", with(PROFILE, "tier", " "))
        .hasMessage("field 'tier' must be a non-empty string");
  }

  @ParameterizedTest
  @ValueSource(strings = {"hello", "{\"eventId\":", "{} trailing", "{}{}"})
  void bodyThatIsNotJsonIsRefused(String body) {
    assertRefused("order.completed", body).hasMessageStartingWith("body is not valid JSON");
  }

  @Test
  void notJsonMessageQuotesTheStartOfTheBody() {
    assertRefused("order.completed", "<xml>order</xml>")
        .hasMessage("body is not valid JSON (starts with '<xml>order</xml>')");
    assertRefused("order.completed", "{\"eventId\": <xml/>}")
        .hasMessage("body is not valid JSON (starts with '{\"eventId\": <xml/>}')")
        .hasCauseInstanceOf(java.io.IOException.class);
  }

  /** Bad input, not a fault of the code: a flood of it must not cost a stack walk each. */
  @ParameterizedTest
  @ValueSource(strings = {"<xml/>", "{\"eventId\": 1", "[]"})
  void refusalsCarryNoStackTrace(String body) {
    assertRefused("order.completed", body).satisfies(e -> assertThat(e.getStackTrace()).isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"[" + "{}" + "]", "42", "\"text\"", "null", "  "})
  void bodyThatIsNotAnObjectIsRefused(String body) {
    assertRefused("order.completed", body).hasMessage("body is not a JSON object");
  }

  @Test
  void emptyBodyIsRefused() {
    assertThatThrownBy(() -> EventCodec.decode("order.completed", new byte[0]))
        .isInstanceOf(InvalidEventException.class)
        .hasMessage("empty body: expected a JSON object");
    assertThatThrownBy(() -> EventCodec.decode(EventType.ORDER_COMPLETED, (byte[]) null))
        .isInstanceOf(InvalidEventException.class)
        .hasMessage("empty body: expected a JSON object");
  }

  @Test
  void unknownRoutingKeyIsNamed() {
    assertRefused("order.cancelled", ORDER).hasMessage("unknown routing key 'order.cancelled'");
    assertRefused(null, ORDER).hasMessage("unknown routing key 'null'");
  }

  @Test
  void bodyOfAnotherTypeIsRefusedByItsFirstMissingField() {
    assertRefused("reward.redeemed", ORDER).hasMessageStartingWith("missing field '");
  }

  @Test
  void unknownExtraFieldsAreToleratedButFingerprinted() throws Exception {
    ObjectNode json = (ObjectNode) JSON.readTree(ORDER);
    json.put("channel", "web");
    json.putObject("meta").putArray("tags").add("x");

    DecodedEvent plain = decode("order.completed", ORDER);
    DecodedEvent extended = decode("order.completed", json.toString());

    assertThat(extended.event()).isEqualTo(plain.event());
    assertThat(extended.payloadSha256()).isNotEqualTo(plain.payloadSha256());
  }

  @Test
  void outOfRangeNumberInExtraFieldIsFingerprintedNotCrashed() throws Exception {
    String huge =
        ORDER.replace("\"currency\"", "\"score\":1e400,\"tiny\":1e-999999999,\"currency\"");
    String bigger = huge.replace("1e400", "1e401");

    DecodedEvent decoded = decode("order.completed", huge);

    assertThat(decoded.payloadSha256()).matches("[0-9a-f]{64}");
    assertThat(decode("order.completed", bigger).payloadSha256())
        .isNotEqualTo(decoded.payloadSha256());
  }

  private static String contractBody(String routingKey) {
    switch (routingKey) {
      case "order.completed":
        return ORDER;
      case "reward.redeemed":
        return REWARD;
      default:
        return PROFILE;
    }
  }

  static Stream<String> fieldNames(JsonNode node) {
    Stream.Builder<String> names = Stream.builder();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    return names.build();
  }

  private static String with(String body, String field, Object value) {
    try {
      ObjectNode json = (ObjectNode) JSON.readTree(body);
      json.set(field, JSON.valueToTree(value));
      return json.toString();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static DecodedEvent decode(String routingKey, String body) throws InvalidEventException {
    return EventCodec.decode(routingKey, body.getBytes(StandardCharsets.UTF_8));
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertRefused(
      String routingKey, String body) {
    return assertThatThrownBy(() -> decode(routingKey, body))
        .isInstanceOf(InvalidEventException.class);
  }
}
