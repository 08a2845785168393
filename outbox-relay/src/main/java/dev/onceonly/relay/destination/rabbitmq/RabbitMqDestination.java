package dev.onceonly.relay.destination.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Return;
import com.rabbitmq.client.ShutdownSignalException;
import dev.onceonly.model.BrokerNodes;
import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.Destination;
import dev.onceonly.relay.destination.PublishThread;
import dev.onceonly.relay.destination.Template.MissingValue;
import dev.onceonly.relay.lease.LeasedRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * A RabbitMQ destination: each row is published to an exchange with a routing key its template
 * fills from the row, {@code message-id} = the row's idempotency key (the same on every attempt, so
 * a consumer that claims it applies a repeated publish once), the payload as a JSON body, the row's
 * trace context as a {@code traceparent} header, persistent and {@code mandatory} as configured, on
 * a channel in publisher-confirm mode. The row is delivered when the broker confirms; a message the
 * broker returns (unroutable) or nacks, a lost connection, and a confirm that does not come in
 * {@code confirm-timeout} are failed attempts, retried with backoff, never a silent drop.
 *
 * <p>One connection and channel per destination, opened on first use and again after a failure (no
 * automatic recovery: the outbox retries). Publishing runs on a thread of its own, so a broker that
 * is slow to accept a connection never holds up the relay's loop.
 */
public final class RabbitMqDestination implements Destination {

  private static final Logger LOG = Logger.getLogger(RabbitMqDestination.class);

  /** A publish waiting for its confirm; {@code returned} is set when the broker returned it. */
  private static final class Pending {
    final CompletableFuture<DeliveryResult> result;
    final String messageId;
    volatile String returned;

    Pending(CompletableFuture<DeliveryResult> result, String messageId) {
      this.result = result;
      this.messageId = messageId;
    }
  }

  private final String name;
  private final RabbitMqSettings settings;
  private final ConnectionFactory factory;
  private final List<Address> nodes;
  private final ExecutorService publisher;
  private final ConcurrentNavigableMap<Long, Pending> unconfirmed = new ConcurrentSkipListMap<>();
  private final Map<String, Pending> byMessageId = new ConcurrentHashMap<>();
  private Connection connection; // publisher thread only
  private Channel channel; // publisher thread only

  public RabbitMqDestination(String name, RabbitMqSettings settings) {
    this.name = name;
    this.settings = settings;
    this.factory = factory(settings);
    this.nodes = settings.nodes().stream().map(n -> new Address(n.host(), n.port())).toList();
    this.publisher = PublishThread.of("rabbitmq", name);
  }

  @Override
  public String target() {
    return settings.target();
  }

  @Override
  public CompletableFuture<DeliveryResult> send(LeasedRow row, String traceParent) {
    String routingKey;
    try {
      routingKey = routingKey(row);
    } catch (MissingValue e) {
      return CompletableFuture.completedFuture(
          DeliveryResult.unsendable("cannot build the routing key: " + e.getMessage()));
    }
    if (routingKey.getBytes(StandardCharsets.UTF_8).length > 255) {
      return CompletableFuture.completedFuture(
          DeliveryResult.unsendable("the routing key is longer than 255 bytes: " + routingKey));
    }
    CompletableFuture<DeliveryResult> result = new CompletableFuture<>();
    publisher.execute(() -> publish(row, traceParent, routingKey, result));
    long within = settings.connectTimeout().plus(settings.confirmTimeout()).toMillis();
    return result
        .orTimeout(within, TimeUnit.MILLISECONDS)
        .exceptionally(
            error -> {
              forget(row.idempotencyKey());
              return error instanceof TimeoutException
                  ? DeliveryResult.noAnswer("no publisher confirm within " + within + " ms")
                  : DeliveryResult.noAnswer("publish failed: " + error);
            });
  }

  private void publish(
      LeasedRow row,
      String traceParent,
      String routingKey,
      CompletableFuture<DeliveryResult> result) {
    if (result.isDone()) {
      return; // timed out while waiting for this thread
    }
    Channel open;
    try {
      open = channel();
    } catch (IOException | RuntimeException | java.util.concurrent.TimeoutException e) {
      result.complete(DeliveryResult.noAnswer("cannot publish to " + where() + ": " + describe(e)));
      return;
    }
    Pending pending = new Pending(result, row.idempotencyKey());
    long sequence = open.getNextPublishSeqNo();
    unconfirmed.put(sequence, pending);
    byMessageId.put(row.idempotencyKey(), pending);
    try {
      open.basicPublish(
          settings.exchange(),
          routingKey,
          settings.mandatory(),
          properties(row, traceParent),
          row.payload().getBytes(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      unconfirmed.remove(sequence);
      byMessageId.remove(row.idempotencyKey(), pending);
      result.complete(DeliveryResult.noAnswer("publish failed: " + describe(e)));
    }
  }

  private AMQP.BasicProperties properties(LeasedRow row, String traceParent) {
    Map<String, Object> headers = new HashMap<>();
    if (traceParent != null) {
      headers.put("traceparent", traceParent);
    }
    return new AMQP.BasicProperties.Builder()
        .messageId(row.idempotencyKey())
        .contentType("application/json")
        .deliveryMode(settings.persistent() ? 2 : 1)
        .timestamp(new Date())
        .appId("onceonly-outbox-relay")
        .headers(headers)
        .build();
  }

  /** The open channel, connecting (and checking the exchange) first when there is none. */
  private Channel channel() throws IOException, java.util.concurrent.TimeoutException {
    if (channel != null && channel.isOpen()) {
      return channel;
    }
    closeQuietly();
    connection = factory.newConnection(nodes, "onceonly-relay-" + name);
    if (!settings.exchange().isEmpty()) {
      // A missing exchange closes the channel it is asked on: ask on one of its own.
      try (Channel probe = connection.createChannel()) {
        probe.exchangeDeclarePassive(settings.exchange());
      } catch (IOException e) {
        closeQuietly();
        throw new IOException(
            "exchange '" + settings.exchange() + "' does not exist on " + where(), e);
      }
    }
    Channel made = connection.createChannel();
    made.confirmSelect();
    made.addConfirmListener(
        (tag, multiple) -> confirmed(tag, multiple, true),
        (tag, multiple) -> confirmed(tag, multiple, false));
    made.addReturnListener(this::returned);
    made.addShutdownListener(this::closed);
    channel = made;
    LOG.infof("destination %s: connected to %s", name, where());
    return made;
  }

  private void confirmed(long tag, boolean multiple, boolean ack) {
    Map<Long, Pending> done = multiple ? unconfirmed.headMap(tag, true) : single(tag);
    for (Long sequence : Map.copyOf(done).keySet()) {
      Pending pending = unconfirmed.remove(sequence);
      if (pending == null) {
        continue;
      }
      byMessageId.remove(pending.messageId, pending);
      String returned = pending.returned;
      if (!ack) {
        pending.result.complete(DeliveryResult.failed("nacked by the broker", true));
      } else if (returned != null) {
        pending.result.complete(
            DeliveryResult.failed("returned by the broker: " + returned, false));
      } else {
        pending.result.complete(DeliveryResult.taken());
      }
    }
  }

  private Map<Long, Pending> single(long tag) {
    Pending pending = unconfirmed.get(tag);
    return pending == null ? Map.of() : Map.of(tag, pending);
  }

  /** An unroutable mandatory message comes back before its confirm (RabbitMQ's guarantee). */
  private void returned(Return r) {
    String messageId = r.getProperties() == null ? null : r.getProperties().getMessageId();
    Pending pending = messageId == null ? null : byMessageId.get(messageId);
    if (pending != null) {
      pending.returned =
          r.getReplyCode()
              + " "
              + r.getReplyText()
              + " (exchange '"
              + r.getExchange()
              + "', routing key '"
              + r.getRoutingKey()
              + "')";
    }
  }

  /** The channel closed: every publish waiting for a confirm failed (it may have gone through). */
  private void closed(ShutdownSignalException cause) {
    String reason = "channel closed before the confirm: " + cause.getMessage();
    for (Long sequence : Map.copyOf(unconfirmed).keySet()) {
      Pending pending = unconfirmed.remove(sequence);
      if (pending != null) {
        byMessageId.remove(pending.messageId, pending);
        pending.result.complete(DeliveryResult.noAnswer(reason));
      }
    }
  }

  private void forget(String messageId) {
    Pending pending = byMessageId.remove(messageId);
    if (pending != null) {
      unconfirmed.values().remove(pending);
    }
  }

  private String routingKey(LeasedRow row) throws MissingValue {
    return settings.routingKey().render(row, value -> value);
  }

  private String where() {
    return "amqp"
        + (settings.tls().isPresent() ? "s" : "")
        + "://"
        + BrokerNodes.text(settings.nodes())
        + "/"
        + settings.virtualHost();
  }

  private static String describe(Exception e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    String text = String.valueOf(cause.getMessage());
    return e.getCause() != null
            && e.getCause().getMessage() != null
            && !text.contains(e.getCause().getMessage())
        ? text + " (" + e.getCause().getMessage() + ")"
        : text;
  }

  private void closeQuietly() {
    Connection current = connection;
    connection = null;
    channel = null;
    if (current != null) {
      current.abort(1_000);
    }
  }

  @Override
  public void close() {
    publisher.shutdownNow();
    closeQuietly();
  }

  private static ConnectionFactory factory(RabbitMqSettings settings) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUsername(settings.username());
    factory.setPassword(settings.password());
    factory.setVirtualHost(settings.virtualHost());
    factory.setConnectionTimeout((int) settings.connectTimeout().toMillis());
    factory.setAutomaticRecoveryEnabled(false);
    factory.setTopologyRecoveryEnabled(false);
    // The trust manager checks the host name itself (CaTrust).
    settings.tls().ifPresent(trust -> factory.useSslProtocol(trust.sslContext()));
    return factory;
  }
}
