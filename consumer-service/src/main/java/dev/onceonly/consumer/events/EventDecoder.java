package dev.onceonly.consumer.events;

import dev.onceonly.api.Decoded;
import dev.onceonly.api.IncomingMessage;
import dev.onceonly.api.InvalidMessageException;
import dev.onceonly.api.MessageDecoder;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.EventType;
import dev.onceonly.model.InvalidEventException;
import dev.onceonly.model.LoyaltyEvent;
import java.util.Set;

/**
 * The loyalty events' contract (ARCHITECTURE.md §8) for one consumer: the message's subject says
 * which event the body is (the routing key on RabbitMQ, the topic on Kafka, where each event type
 * has the topic of its routing key: docs/kafka.md), {@link EventCodec} validates every field, and
 * an event type the consumer does not handle is refused. The message key is the event's own ({@code
 * order-completed:<orderId>}); messages are applied in customer order, so that two transactions
 * touching one balance queue instead of deadlocking.
 */
abstract class EventDecoder implements MessageDecoder<LoyaltyEvent> {

  private final String consumer;
  private final Set<EventType> handles;

  EventDecoder(String consumer, Set<EventType> handles) {
    this.consumer = consumer;
    this.handles = handles;
  }

  @Override
  public Decoded<LoyaltyEvent> decode(IncomingMessage message) throws InvalidMessageException {
    String subject = message.subject();
    EventType type =
        EventType.fromRoutingKey(subject)
            .orElseThrow(
                () ->
                    new InvalidMessageException(
                        "unknown event type '" + subject + "' (the routing key, or the topic)"));
    LoyaltyEvent event;
    try {
      event = EventCodec.event(type, message.json());
    } catch (InvalidEventException e) {
      throw new InvalidMessageException(e.getMessage());
    }
    if (!handles.contains(type)) {
      throw new InvalidMessageException("consumer " + consumer + " does not handle " + subject);
    }
    return new Decoded<>(event, event.messageKey(), event.occurredAt(), event.customerId());
  }
}
