package dev.onceonly.internal.messaging;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Return;
import dev.onceonly.internal.catalog.ConsumerSpec;
import dev.onceonly.internal.config.OnceOnlyConfig;
import io.smallrye.reactive.messaging.rabbitmq.IncomingRabbitMQMetadata;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.Config;

/**
 * Moves a message to its consumer's dead-letter queue with the reason in headers, through the
 * dead-letter exchange; the caller acks the original only once the broker confirmed the dead
 * letter: a crash in between leaves a copy in both places, never in neither. Published {@code
 * mandatory}: a dead letter the broker cannot route (its queue deleted) fails the send, and the
 * caller rejects the original to the queue's own dead-letter exchange instead of losing it.
 *
 * <p>On a broker connection and channel of its own, with asynchronous confirms. Handlers do not
 * wait: a dead letter waits up to {@code DEAD_LETTER_LINGER} (300 ms) for others, or until {@value
 * #FULL_BATCH} wait, then all that waited are published together, and each original is acked when
 * its own confirm arrives, on the thread that reads the broker's confirms. What a dead letter costs
 * the machine (the publisher, the broker and the kernel) depends on how many the broker takes and
 * confirms together: 0.19 to 0.24 ms each in batches of 20, 0.65 to 0.67 ms in batches of 3, which
 * is what a 20 ms linger gathered with a tenth of the messages invalid (chaos scenario 7, {@code
 * deploy/chaos/RESULTS.md}). Published one by one as they came and awaited by their handlers,
 * invalid messages among healthy ones cost the consumer and the broker two to four times as much
 * CPU (the broker confirmed and stored each alone, and each confirm and ack woke threads of its
 * own). A handler only queues its letter, even with a linger of 0: opening a connection and
 * publishing happen on the flushing thread, under a lock of their own, so a broker that is slow to
 * answer holds neither a handler nor the connector's event loop it runs on. (Through the messaging
 * connector's emitter, each dead letter read a dozen connector settings from the configuration, and
 * with 10 % invalid messages the consumer spent half again as much CPU.)
 */
@Singleton
public class DeadLetters {

  /** Why the message was dead-lettered, for the operator who reads the queue. */
  public static final String HEADER_REASON = "x-onceonly-reason";

  /** {@code invalid} (never retry as is) or {@code transient} (replaying may succeed). */
  public static final String HEADER_FAILURE = "x-onceonly-failure";

  public static final String HEADER_CONSUMER = "x-onceonly-consumer";
  public static final String HEADER_ORIGINAL_EXCHANGE = "x-original-exchange";
  public static final String HEADER_ORIGINAL_ROUTING_KEY = "x-original-routing-key";

  /** A dead letter's message id names its publish (its channel sequence number) for returns. */
  private static final String PUBLISH_ID = "onceonly-dead-letter-";

  /**
   * A batch this full is published at once, whatever the linger: a flood of invalid messages is not
   * held back by it (each original keeps its prefetch slot until its dead letter is confirmed).
   */
  static final int FULL_BATCH = 64;

  private static final long CONFIRM_TIMEOUT_MS = 10_000;
  private static final long CLOSE_CONFIRM_WAIT_MS = 2_000;

  private final ConnectionFactory factory;
  private final String exchange;
  private final long lingerMs;

  /** Guards {@link #pending}, {@link #flushScheduled} and {@link #closed}; held only briefly. */
  private final Object lock = new Object();

  /** Guards the connection, the channel and publishing on it. */
  private final Object publishing = new Object();

  /** Dead letters waiting for the next flush. */
  private List<Pending> pending = new ArrayList<>();

  private final ScheduledExecutorService flusher =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "onceonly-dead-letters");
            t.setDaemon(true);
            return t;
          });

  private Connection connection;

  /** The channel published on and its letters not yet confirmed; guarded by {@link #publishing}. */
  private Publication current;

  private boolean flushScheduled;
  private boolean closed;

  @Inject
  public DeadLetters(Config config, OnceOnlyConfig onceOnly) {
    this(
        BrokerConnections.factory(config),
        onceOnly.deadLetters().exchange(),
        onceOnly.deadLetters().linger());
  }

  public DeadLetters(ConnectionFactory factory, String exchange, Duration linger) {
    if (linger.isNegative()) {
      throw new IllegalArgumentException(
          "quarkus.onceonly.dead-letters.linger must not be negative, got " + linger);
    }
    this.factory = factory;
    this.exchange = exchange;
    this.lingerMs = linger.toMillis();
  }

  /**
   * Queues the dead letter for the next flush (the linger's end, or at once once {@value
   * #FULL_BATCH} wait) and returns at once: the stage completes when the broker confirms it, and
   * fails if the broker nacks or returns it, the channel closes first, or no confirm comes within
   * {@value #CONFIRM_TIMEOUT_MS} ms. The handler's thread never waits for the broker.
   */
  public CompletableFuture<Void> send(
      ConsumerSpec consumer, Original original, byte[] body, String failure, String reason) {
    Map<String, Object> headers = new HashMap<>(original.headers());
    headers.put(HEADER_REASON, reason);
    headers.put(HEADER_FAILURE, failure);
    headers.put(HEADER_CONSUMER, consumer.name());
    headers.put(HEADER_ORIGINAL_EXCHANGE, original.exchange());
    headers.put(HEADER_ORIGINAL_ROUTING_KEY, original.routingKey());
    CompletableFuture<Void> confirmed = new CompletableFuture<>();
    Pending letter =
        new Pending(consumer.queue(), original.contentType(), headers, body, confirmed);
    synchronized (lock) {
      if (closed) {
        confirmed.completeExceptionally(new IOException("the dead-letter publisher is stopped"));
      } else {
        pending.add(letter);
        if (pending.size() == FULL_BATCH) {
          flusher.execute(this::flush);
        } else if (!flushScheduled) {
          flushScheduled = true;
          flusher.schedule(this::flush, lingerMs, TimeUnit.MILLISECONDS);
        }
      }
    }
    return confirmed
        .orTimeout(CONFIRM_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .handle(
            (ok, e) -> {
              if (e == null) {
                return null;
              }
              Throwable cause = e instanceof CompletionException ? e.getCause() : e;
              throw new IllegalStateException(
                  cause instanceof TimeoutException
                      ? "no broker confirm for a dead letter within " + CONFIRM_TIMEOUT_MS + " ms"
                      : "dead letter not taken by the broker: " + cause,
                  cause);
            });
  }

  /** Publishes every dead letter waiting, in the order they came. */
  private void flush() {
    List<Pending> batch;
    synchronized (lock) {
      flushScheduled = false;
      batch = pending;
      pending = new ArrayList<>();
    }
    if (!batch.isEmpty()) {
      publish(batch);
    }
  }

  private void publish(List<Pending> batch) {
    synchronized (publishing) {
      for (Pending letter : batch) {
        publish(letter);
      }
    }
  }

  /** One dead letter on the channel; the caller holds {@link #publishing}. */
  private void publish(Pending letter) {
    try {
      Publication on = publication();
      Channel open = on.channel;
      long publish = open.getNextPublishSeqNo();
      AMQP.BasicProperties properties =
          new AMQP.BasicProperties.Builder()
              .messageId(PUBLISH_ID + publish)
              .contentType(letter.contentType())
              .deliveryMode(2)
              .headers(letter.headers())
              .build();
      on.unconfirmed.put(publish, letter.confirmed());
      open.basicPublish(exchange, letter.queue(), true, properties, letter.body());
    } catch (IOException | TimeoutException | RuntimeException e) {
      letter.confirmed().completeExceptionally(e);
      closeQuietly();
    }
  }

  /** The open channel, in confirm mode, opening connection and channel first if needed. */
  private Publication publication() throws IOException, TimeoutException {
    if (current != null && current.channel.isOpen()) {
      return current;
    }
    closeQuietly();
    connection = factory.newConnection("onceonly-dead-letters");
    Channel opened = connection.createChannel();
    opened.confirmSelect();
    Publication on = new Publication(opened);
    opened.addConfirmListener(
        (tag, multiple) -> on.settle(tag, multiple, null),
        (tag, multiple) -> on.settle(tag, multiple, "nacked by the broker"));
    opened.addReturnListener(on::returned);
    opened.addShutdownListener(cause -> on.failAll("channel closed: " + cause.getMessage()));
    current = on;
    return on;
  }

  private void closeQuietly() {
    Connection old = connection;
    Publication closing = current;
    connection = null;
    current = null;
    if (old != null) {
      try {
        old.abort(1_000);
      } catch (RuntimeException ignored) {
        // closing a connection that already failed
      }
    }
    if (closing != null) {
      closing.failAll("dead-letter connection closed");
    }
  }

  /**
   * Waits until every dead letter queued so far with a linger of 0 was published (tests): the one
   * flushing thread runs what was scheduled in order.
   */
  public void awaitFlushed() throws InterruptedException, ExecutionException, TimeoutException {
    flusher.submit(() -> {}).get(CONFIRM_TIMEOUT_MS, TimeUnit.MILLISECONDS);
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

  /**
   * Publishes what waits, gives the broker up to {@value #CLOSE_CONFIRM_WAIT_MS} ms to confirm
   * every dead letter, then closes; an unconfirmed one fails, and its original is rejected to its
   * queue's dead-letter exchange or, if that ack no longer reaches the broker, redelivered.
   */
  @PreDestroy
  public void close() {
    synchronized (lock) {
      closed = true;
    }
    flusher.shutdown();
    flush();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_CONFIRM_WAIT_MS);
    Publication last;
    synchronized (publishing) {
      last = current;
    }
    List<CompletableFuture<Void>> waiting =
        last == null ? List.of() : List.copyOf(last.unconfirmed.values());
    for (CompletableFuture<Void> f : waiting) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException | TimeoutException e) {
        // failed or late: closing fails it below
      }
    }
    synchronized (publishing) {
      closeQuietly();
    }
  }

  /** Where the message came from and how it was sent: the dead letter keeps all of it. */
  public record Original(
      String exchange, String routingKey, Map<String, Object> headers, String contentType) {

    public static Original of(IncomingRabbitMQMetadata meta) {
      return new Original(
          meta.getExchange(),
          meta.getRoutingKey(),
          meta.getHeaders(),
          meta.getContentType().orElse("application/json"));
    }
  }

  /**
   * A channel in confirm mode and the dead letters published on it that the broker has not yet
   * confirmed, by sequence number. Its listeners settle its own letters only: sequence numbers
   * start again at 1 on every channel, so a channel that confirms, returns or closes late, after a
   * new one took over, must not complete or fail the new one's letters (a late confirm would have
   * acked an original whose dead letter the broker never confirmed).
   */
  private static final class Publication {

    final Channel channel;
    final ConcurrentNavigableMap<Long, CompletableFuture<Void>> unconfirmed =
        new ConcurrentSkipListMap<>();

    Publication(Channel channel) {
      this.channel = channel;
    }

    void settle(long tag, boolean multiple, String error) {
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
    void returned(Return r) {
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

    void failAll(String why) {
      for (Long tag : unconfirmed.keySet()) {
        CompletableFuture<Void> f = unconfirmed.remove(tag);
        if (f != null) {
          f.completeExceptionally(new IOException(why));
        }
      }
    }
  }

  /** A dead letter waiting for the next flush. */
  private record Pending(
      String queue,
      String contentType,
      Map<String, Object> headers,
      byte[] body,
      CompletableFuture<Void> confirmed) {}
}
