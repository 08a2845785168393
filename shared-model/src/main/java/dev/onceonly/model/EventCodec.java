package dev.onceonly.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The JSON contract of the events (ARCHITECTURE.md §2, §8): camelCase fields, {@code eventId} a
 * UUID, {@code occurredAt} ISO-8601. Decoding validates every field and says which one is wrong.
 * Unknown fields are tolerated (producers may add fields) but are part of the fingerprint.
 */
public final class EventCodec {

  /** Ids: 1 to 64 characters of letters, digits, {@code . _ -}. */
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");

  /** Writes the contract JSON of events a producer publishes. */
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private EventCodec() {}

  /**
   * Decodes and validates a body that arrived with a routing key.
   *
   * @throws InvalidEventException with a message naming the routing key or field at fault
   */
  public static DecodedEvent decode(String routingKey, byte[] body) throws InvalidEventException {
    EventType type =
        EventType.fromRoutingKey(routingKey)
            .orElseThrow(
                () -> new InvalidEventException("unknown routing key '" + routingKey + "'"));
    return decode(type, body);
  }

  /** Decodes and validates a body of a known type. */
  public static DecodedEvent decode(EventType type, byte[] body) throws InvalidEventException {
    return decode(type, JsonObjects.parse(body));
  }

  /** Validates a body already read as a JSON object, of a known type. */
  public static DecodedEvent decode(EventType type, JsonNode root) throws InvalidEventException {
    return new DecodedEvent(event(type, root), PayloadFingerprint.sha256(root));
  }

  /**
   * The event of a body already read as a JSON object, validated, without its fingerprint: for a
   * reader that fingerprints the tree itself (the OnceOnly extension does, once per message).
   */
  public static LoyaltyEvent event(EventType type, JsonNode root) throws InvalidEventException {
    return switch (type) {
      case ORDER_COMPLETED -> orderCompleted(root);
      case REWARD_REDEEMED -> rewardRedeemed(root);
      case CUSTOMER_PROFILE_CHANGED -> profileChanged(root);
    };
  }

  /** The contract JSON of an event, as a producer publishes it. */
  public static byte[] encode(LoyaltyEvent event) {
    ObjectNode json = MAPPER.createObjectNode();
    json.put("eventId", event.eventId().toString());
    if (event instanceof OrderCompleted e) {
      json.put("orderId", e.orderId());
      json.put("customerId", e.customerId());
      json.put("customerEmail", e.customerEmail());
      json.put("totalCents", e.totalCents());
      json.put("currency", e.currency());
    } else if (event instanceof RewardRedeemed e) {
      json.put("redemptionId", e.redemptionId());
      json.put("customerId", e.customerId());
      json.put("points", e.points());
      json.put("payoutCents", e.payoutCents());
      json.put("currency", e.currency());
    } else if (event instanceof CustomerProfileChanged e) {
      json.put("customerId", e.customerId());
      json.put("version", e.version());
      json.put("tier", e.tier());
      json.put("email", e.email());
    }
    json.put("occurredAt", event.occurredAt().toString());
    try {
      return MAPPER.writeValueAsBytes(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode " + event, e);
    }
  }

  private static OrderCompleted orderCompleted(JsonNode root) throws InvalidEventException {
    return new OrderCompleted(
        uuid(root, "eventId"),
        id(root, "orderId"),
        id(root, "customerId"),
        email(root, "customerEmail"),
        atLeast(root, "totalCents", 0),
        currency(root),
        instant(root, "occurredAt"));
  }

  private static RewardRedeemed rewardRedeemed(JsonNode root) throws InvalidEventException {
    return new RewardRedeemed(
        uuid(root, "eventId"),
        id(root, "redemptionId"),
        id(root, "customerId"),
        atLeast(root, "points", 1),
        atLeast(root, "payoutCents", 0),
        currency(root),
        instant(root, "occurredAt"));
  }

  private static CustomerProfileChanged profileChanged(JsonNode root) throws InvalidEventException {
    return new CustomerProfileChanged(
        uuid(root, "eventId"),
        id(root, "customerId"),
        atLeast(root, "version", 1),
        text(root, "tier"),
        email(root, "email"),
        instant(root, "occurredAt"));
  }

  private static JsonNode required(JsonNode root, String field) throws InvalidEventException {
    JsonNode node = root.get(field);
    if (node == null || node.isNull()) {
      throw new InvalidEventException("missing field '" + field + "'");
    }
    return node;
  }

  private static String text(JsonNode root, String field) throws InvalidEventException {
    JsonNode node = required(root, field);
    if (!node.isTextual() || node.asText().isBlank()) {
      throw new InvalidEventException("field '" + field + "' must be a non-empty string");
    }
    return node.asText();
  }

  private static String id(JsonNode root, String field) throws InvalidEventException {
    String value = text(root, field);
    if (!ID.matcher(value).matches()) {
      throw new InvalidEventException(
          "bad id in field '"
              + field
              + "': '"
              + value
              + "' (1-64 letters, digits, '.', '_' or '-')");
    }
    return value;
  }

  private static String email(JsonNode root, String field) throws InvalidEventException {
    String value = text(root, field);
    if (!EMAIL.matcher(value).matches()) {
      throw new InvalidEventException("field '" + field + "' is not an e-mail address");
    }
    return value;
  }

  private static String currency(JsonNode root) throws InvalidEventException {
    String value = text(root, "currency");
    if (!CURRENCY.matcher(value).matches()) {
      throw new InvalidEventException(
          "field 'currency' must be a three-letter ISO 4217 code, was '" + value + "'");
    }
    return value;
  }

  private static long atLeast(JsonNode root, String field, long min) throws InvalidEventException {
    JsonNode node = required(root, field);
    if (!node.isIntegralNumber() || !node.canConvertToLong()) {
      throw new InvalidEventException("field '" + field + "' must be a whole number");
    }
    long value = node.asLong();
    if (value < min) {
      String problem =
          value < 0
              ? "negative amount in field '" + field + "': " + value
              : "field '" + field + "' was " + value;
      throw new InvalidEventException(problem + " (must be " + min + " or more)");
    }
    return value;
  }

  private static UUID uuid(JsonNode root, String field) throws InvalidEventException {
    String value = text(root, field);
    try {
      UUID parsed = UUID.fromString(value);
      if (!parsed.toString().equalsIgnoreCase(value)) {
        throw new IllegalArgumentException(value);
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      throw new InvalidEventException(
          "bad id in field '" + field + "': not a UUID: '" + value + "'");
    }
  }

  private static Instant instant(JsonNode root, String field) throws InvalidEventException {
    String value = text(root, field);
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      try {
        return java.time.OffsetDateTime.parse(value).toInstant();
      } catch (DateTimeParseException e2) {
        throw new InvalidEventException(
            "field '" + field + "' is not an ISO-8601 timestamp: '" + value + "'");
      }
    }
  }
}
