package dev.onceonly.internal.intake;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceonly.api.Dated;
import dev.onceonly.api.Decoded;
import dev.onceonly.api.IncomingMessage;
import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.api.Keyed;
import dev.onceonly.api.LockOrdered;
import dev.onceonly.api.MessageDecoder;
import dev.onceonly.internal.config.OnceOnlyConfig;
import java.time.Instant;

/**
 * The default decoder: the body as JSON into the handler's event type with the application's
 * Jackson settings (and no silent nulls for primitives), the message key from the event ({@link
 * Keyed}) or the consumer's key settings, the date from the event ({@link Dated}; the build makes
 * sure the type has one), the lock order from the event ({@link LockOrdered}).
 */
public final class JsonEventDecoder implements MessageDecoder<Object> {

  /** Longest message key accepted. */
  static final int MAX_KEY_LENGTH = 500;

  private final ObjectMapper mapper;
  private final Class<?> eventType;
  private final OnceOnlyConfig.Key key;

  public JsonEventDecoder(ObjectMapper mapper, Class<?> eventType, OnceOnlyConfig.Key key) {
    this.mapper = mapper.copy().enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
    this.eventType = eventType;
    this.key = key;
  }

  @Override
  public Decoded<Object> decode(IncomingMessage message) throws InvalidMessageException {
    JsonNode json = message.json();
    Object event;
    try {
      event = mapper.treeToValue(json, eventType);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new InvalidMessageException(
          "body is not a " + eventType.getSimpleName() + ": " + firstLine(e.getMessage()));
    }
    if (event == null) {
      throw new InvalidMessageException("body is not a " + eventType.getSimpleName());
    }
    Instant occurredAt = ((Dated) event).occurredAt();
    if (occurredAt == null) {
      throw new InvalidMessageException(
          "the event has no date: " + eventType.getSimpleName() + ".occurredAt() is null");
    }
    String lockKey = event instanceof LockOrdered ordered ? ordered.lockKey() : null;
    return new Decoded<>(event, messageKey(event, json, message), occurredAt, lockKey);
  }

  private String messageKey(Object event, JsonNode json, IncomingMessage message)
      throws InvalidMessageException {
    String raw;
    String from;
    if (event instanceof Keyed keyed) {
      raw = keyed.messageKey();
      from = eventType.getSimpleName() + ".messageKey()";
    } else if (key.field().isPresent()) {
      JsonNode value = json.get(key.field().get());
      raw = value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
      from = "field '" + key.field().get() + "'";
    } else if ("message-id".equalsIgnoreCase(key.header())) {
      raw = message.messageId().orElse(null);
      from = "message-id";
    } else {
      Object value = message.headers().get(key.header());
      raw = value == null ? null : value.toString();
      from = "header '" + key.header() + "'";
    }
    if (raw == null || raw.isBlank()) {
      throw new InvalidMessageException("no message key: the message has no " + from);
    }
    String full = key.prefix().orElse("") + raw;
    return checked(full, from);
  }

  /** A key the claim table and the outbox keys can hold: not too long, no NUL. */
  static String checked(String key, String from) throws InvalidMessageException {
    if (key.length() > MAX_KEY_LENGTH) {
      throw new InvalidMessageException(
          "message key from " + from + " is longer than " + MAX_KEY_LENGTH + " characters");
    }
    if (key.indexOf('\0') >= 0) {
      throw new InvalidMessageException("message key from " + from + " holds a NUL character");
    }
    return key;
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "unreadable";
    }
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }
}
