package dev.onceonly.consumer.messaging;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Return;
import dev.onceonly.consumer.ConsumerName;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.Config;

/**
 * Moves a message to its consumer's dead-letter queue with the reason in headers, through the
 * dead-letter exchange, and waits for the broker's publisher confirm before the caller acks the
 * original: a crash in between leaves a copy in both places, never in neither. Published {@code
 * mandatory}: a dead letter the broker cannot route (its queue deleted) fails the send, and the
 * caller rejects the original to the queue's own dead-letter exchange instead of losing it.
 *
 * <p>On a broker connection and channel of its own, with asynchronous confirms: handlers publish
 * one after another on the one channel and each waits for its own confirm only. (Through the
 * messaging connector's emitter, each dead letter read a dozen connector settings from the
 * configuration, and with 10 % invalid messages the consumer spent half again as much CPU.)
 */
@ApplicationScoped
public class DeadLetters {

  /** Why the message was dead-lettered, for the operator who reads the queue. */
  public static final String HEADER_REASON = "x-onceonly-reason";

  /** {@code invalid} (never retry as is) or {@code transient} (replaying may succeed). */
  public static final String HEADER_FAILURE = "x-onceonly-failure";

  public static final String HEADER_CONSUMER = "x-onceonly-consumer";
  public static final String HEADER_ORIGINAL_EXCHANGE = "x-original-exchange";
  public static final String HEADER_ORIGINAL_ROUTING_KEY = "x-original-routing-key";

  /** The exchange every consumer queue's dead-letter queue is bound to, by the queue's name. */
  public static final String EXCHANGE = "onceonly.dlx";

  /** A dead letter's message id names its publish (its channel sequence number) for returns. */
  private static final String PUBLISH_ID = "onceonly-dead-letter-";

  private static final long CONFIRM_TIMEOUT_MS = 10_000;

  private final ConnectionFactory factory;
  private final Object lock = new Object();

  /** Publishes not yet confirmed, by sequence number, on the current channel. */
  private final ConcurrentNavigableMap<Long, CompletableFuture<Void>> unconfirmed =
      new ConcurrentSkipListMap<>();

  private Connection connection;
  private Channel channel;

  public DeadLetters(Config config) {
    this.factory = BrokerConnections.factory(config);
  }

  /** Publishes and waits for the confirm; throws if the broker did not take it. */
  public void send(
      ConsumerName consumer,
      IncomingRabbitMQMetadata original,
      byte[] body,
      String failure,
      String reason) {
    Map<String, Object> headers = new HashMap<>(original.getHeaders());
    headers.put(HEADER_REASON, reason);
    headers.put(HEADER_FAILURE, failure);
    headers.put(HEADER_CONSUMER, consumer.value());
    headers.put(HEADER_ORIGINAL_EXCHANGE, original.getExchange());
    headers.put(HEADER_ORIGINAL_ROUTING_KEY, original.getRoutingKey());
    CompletableFuture<Void> confirmed = new CompletableFuture<>();
    synchronized (lock) {
      try {
        Channel open = channel();
        long publish = open.getNextPublishSeqNo();
        AMQP.BasicProperties properties =
            new AMQP.BasicProperties.Builder()
                .messageId(PUBLISH_ID + publish)
                .contentType(original.getContentType().orElse("application/json"))
                .deliveryMode(2)
                .headers(headers)
                .build();
        unconfirmed.put(publish, confirmed);
        open.basicPublish(EXCHANGE, Queues.queue(consumer), true, properties, body);
      } catch (IOException | TimeoutException | RuntimeException e) {
        confirmed.completeExceptionally(e);
        closeQuietly();
      }
    }
    try {
      confirmed.get(CONFIRM_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("dead letter not taken by the broker: " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "no broker confirm for a dead letter within " + CONFIRM_TIMEOUT_MS + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a dead-letter confirm", e);
    }
  }

  /** The open channel, in confirm mode, opening connection and channel first if needed. */
  private Channel channel() throws IOException, TimeoutException {
    if (channel != null && channel.isOpen()) {
      return channel;
    }
    closeQuietly();
    connection = factory.newConnection("onceonly-dead-letters");
    Channel opened = connection.createChannel();
    opened.confirmSelect();
    opened.addConfirmListener(
        (tag, multiple) -> settle(tag, multiple, null),
        (tag, multiple) -> settle(tag, multiple, "nacked by the broker"));
    opened.addReturnListener(this::returned);
    opened.addShutdownListener(cause -> failAll("channel closed: " + cause.getMessage()));
    channel = opened;
    return opened;
  }

  private void settle(long tag, boolean multiple, String error) {
    Map<Long, CompletableFuture<Void>> done =
        multiple ? unconfirmed.headMap(tag, true) : subMap(tag);
    for (CompletableFuture<Void> f : done.values()) {
      if (error == null) {
        f.complete(null);
      } else {
        f.completeExceptionally(new IOException(error));
      }
    }
    done.clear();
  }

  private Map<Long, CompletableFuture<Void>> subMap(long tag) {
    return unconfirmed.subMap(tag, true, tag, true);
  }

  /** A mandatory dead letter the exchange could not route: fails before its confirm arrives. */
  private void returned(Return r) {
    String id = r.getProperties().getMessageId();
    if (id != null && id.startsWith(PUBLISH_ID)) {
      CompletableFuture<Void> f =
          unconfirmed.remove(Long.parseLong(id.substring(PUBLISH_ID.length())));
      if (f != null) {
        f.completeExceptionally(
            new IOException(
                "unroutable: "
                    + r.getReplyCode()
                    + " "
                    + r.getReplyText()
                    + " "
                    + r.getRoutingKey()));
      }
    }
  }

  private void failAll(String why) {
    for (Long tag : unconfirmed.keySet()) {
      CompletableFuture<Void> f = unconfirmed.remove(tag);
      if (f != null) {
        f.completeExceptionally(new IOException(why));
      }
    }
  }

  private void closeQuietly() {
    Connection old = connection;
    connection = null;
    channel = null;
    if (old != null) {
      try {
        old.abort(1_000);
      } catch (RuntimeException ignored) {
        // closing a connection that already failed
      }
    }
    failAll("dead-letter connection closed");
  }

  /**
   * Drops the connection under the publisher, as a broker restart or a closed connection does
   * (tests): the next dead letter finds it closed and opens a new one.
   */
  public void abortConnection() {
    Connection current = connection;
    if (current != null) {
      current.abort();
    }
  }

  @PreDestroy
  void close() {
    synchronized (lock) {
      closeQuietly();
    }
  }
}
