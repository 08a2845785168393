package dev.onceonly.internal.intake;

import dev.onceonly.internal.config.OnceOnlyConfig;
import dev.onceonly.internal.metrics.ConsumerMetrics;
import io.smallrye.reactive.messaging.rabbitmq.ClientHolder;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMessage;
import io.vertx.mutiny.core.Context;
import io.vertx.mutiny.rabbitmq.RabbitMQClient;
import jakarta.inject.Singleton;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The {@link AckWindow} of each channel of the SmallRye RabbitMQ connector, sending its acks on the
 * connector's own channel. The connector acks one message per {@code basic.ack} and has no other
 * way; its client and the channel's Vert.x context are read from the message (a private field of
 * {@link IncomingRabbitMQMessage}, read once per message through a {@link VarHandle}). Where that
 * field is not there (another connector version), every message is acked by the connector as
 * before, and the start says so once.
 *
 * <p>Acks go out through the channel's context, like the connector's own acks and nacks: in the
 * order the windows send them, and after any nack the connector was asked for before.
 */
@Singleton
public class RabbitAcks {

  private static final Logger LOG = Logger.getLogger(RabbitAcks.class);

  private static final VarHandle HOLDER = holderField();

  private final Map<ClientHolder, Channel> channels = new ConcurrentHashMap<>();
  private final ConsumerMetrics metrics;
  private final boolean coalesce;

  public RabbitAcks(ConsumerMetrics metrics, OnceOnlyConfig config) {
    this.metrics = metrics;
    this.coalesce = config.broker().coalesceAcks();
  }

  /**
   * The slot of {@code message}, delivered to {@code consumer}, in its channel's window, or empty
   * when its acks are not coalesced (switched off, not the connector's message, or a connector
   * without the field read here).
   */
  Optional<Slotted> delivered(String consumer, Message<byte[]> message) {
    if (!coalesce || HOLDER == null || !(message instanceof IncomingRabbitMQMessage<?> incoming)) {
      return Optional.empty();
    }
    ClientHolder holder = (ClientHolder) HOLDER.get(incoming);
    AckWindow window =
        channels.computeIfAbsent(holder, h -> new Channel(consumer, window(consumer, h))).window();
    io.vertx.rabbitmq.RabbitMQMessage delivery = incoming.message;
    AckWindow.Slot slot =
        window.delivered(delivery.consumerTag(), delivery.envelope().getDeliveryTag());
    return Optional.of(new Slotted(window, slot));
  }

  /**
   * Messages of {@code consumer} delivered and neither acked nor gone yet, on all its channels (in
   * hand, or committed and waiting for an earlier one).
   */
  public int unsettled(String consumer) {
    return channels.values().stream()
        .filter(c -> c.consumer().equals(consumer))
        .mapToInt(c -> c.window().unsettled())
        .sum();
  }

  /** A message's place in its channel's window. */
  record Slotted(AckWindow window, AckWindow.Slot slot) {}

  private record Channel(String consumer, AckWindow window) {}

  private AckWindow window(String consumer, ClientHolder holder) {
    RabbitMQClient client = holder.client();
    Context context = holder.getContext();
    AckWindow window =
        new AckWindow(
            (tag, multiple, current) ->
                context.runOnContext(
                    () -> {
                      if (current.getAsBoolean()) {
                        metrics.ackSent(consumer);
                        client
                            .basicAck(tag, multiple)
                            .subscribe()
                            .with(ok -> {}, e -> LOG.warnf(e, "ack of delivery %d failed", tag));
                      }
                    }));
    client
        .getDelegate()
        .addConnectionEstablishedCallback(
            promise -> {
              window.reconnected();
              promise.complete();
            });
    return window;
  }

  private static VarHandle holderField() {
    try {
      return MethodHandles.privateLookupIn(IncomingRabbitMQMessage.class, MethodHandles.lookup())
          .findVarHandle(IncomingRabbitMQMessage.class, "holder", ClientHolder.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warnf(
          "the RabbitMQ connector's message has no field holder (%s): each message is acked on its"
              + " own",
          e.toString());
      return null;
    }
  }
}
