package dev.onceonly.pipeline;

/**
 * One message to publish: copies of an event share the same bytes. On RabbitMQ it goes to {@code
 * loyalty.events} with {@code routingKey}; on Kafka to the topic of that name, keyed by {@code key}
 * (the customer, so that one customer's events keep their order in one partition) with the
 * producer's id {@code messageId} in header {@code message-id}. A body that is no event has neither
 * key nor id of an event (null).
 */
public record Outgoing(String routingKey, byte[] body, String messageId, String key) {

  /** A message without a producer's id or record key (a body that is no event). */
  public Outgoing(String routingKey, byte[] body) {
    this(routingKey, body, null, null);
  }
}
