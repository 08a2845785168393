package dev.onceonly.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;

/** A message as it arrived, for a {@link MessageDecoder}. */
public interface IncomingMessage {

  /** The body's bytes, as the producer sent them. */
  byte[] body();

  /**
   * The body read as JSON, once (the platform fingerprints the same tree). Refuses a body that is
   * not one JSON value, or that has anything after it.
   */
  JsonNode json() throws InvalidMessageException;

  /** What the message was published to: the AMQP routing key on RabbitMQ, the topic on Kafka. */
  String subject();

  /** The producer's message id: the AMQP {@code message-id} property, or that header. */
  Optional<String> messageId();

  /** The message's headers, values as the client decoded them. */
  Map<String, Object> headers();
}
