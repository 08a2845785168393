package dev.onceonly.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.util.List;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Publishes a series of OrderCompleted events to {@code loyalty.events} as persistent, mandatory
 * messages with publisher confirms, keeping at most {@code window} unconfirmed (so the publisher
 * never waits for a broker fsync per message), and keeps the backlog bounded: every {@code window}
 * messages it pauses while the deepest consumer queue holds more than {@code maxBacklog} ready
 * messages. So the consumer always has work queued, and the broker never becomes a large buffer
 * that the measurement would have to drain.
 */
final class BacklogPublisher implements AutoCloseable {

  static final String EXCHANGE = "loyalty.events";
  static final String ROUTING_KEY = "order.completed";

  private static final AMQP.BasicProperties PERSISTENT_JSON =
      new AMQP.BasicProperties.Builder().contentType("application/json").deliveryMode(2).build();

  private final Connection connection;
  private final Channel publish;
  private final Channel inspect;
  private final List<String> queues;
  private final int maxBacklog;
  private final int window;
  private final Semaphore unconfirmed;
  private final NavigableMap<Long, Boolean> outstanding = new ConcurrentSkipListMap<>();
  private final AtomicInteger nacked = new AtomicInteger();
  private final AtomicInteger unroutable = new AtomicInteger();

  private volatile int maxDepthSeen;
  private volatile long pausedNanos;

  BacklogPublisher(ConnectionFactory factory, List<String> queues, int maxBacklog, int window)
      throws IOException, TimeoutException {
    this.connection = factory.newConnection("onceonly-bench-publisher");
    this.publish = connection.createChannel();
    this.inspect = connection.createChannel();
    this.queues = queues;
    this.maxBacklog = maxBacklog;
    this.window = window;
    this.unconfirmed = new Semaphore(window);
    inspect.exchangeDeclarePassive(EXCHANGE);
    publish.confirmSelect();
    publish.addReturnListener(returned -> unroutable.incrementAndGet());
    publish.addConfirmListener((tag, multiple) -> settle(tag, multiple), this::nack);
  }

  /** Publishes the bodies in order; returns when the broker confirmed them all. */
  void publish(byte[][] bodies) throws IOException, InterruptedException {
    for (int i = 0; i < bodies.length; i++) {
      if (i % window == 0) {
        waitForRoom();
      }
      if (!unconfirmed.tryAcquire(60, TimeUnit.SECONDS)) {
        throw new IOException("the broker confirmed nothing for 60 s");
      }
      outstanding.put(publish.getNextPublishSeqNo(), Boolean.TRUE);
      publish.basicPublish(EXCHANGE, ROUTING_KEY, true, PERSISTENT_JSON, bodies[i]);
    }
    if (!unconfirmed.tryAcquire(window, 60, TimeUnit.SECONDS)) {
      throw new IOException("the broker did not confirm the last messages within 60 s");
    }
    unconfirmed.release(window);
    if (nacked.get() > 0 || unroutable.get() > 0) {
      throw new IOException(
          nacked.get() + " messages nacked and " + unroutable.get() + " unroutable on " + EXCHANGE);
    }
  }

  /** Ready messages in the deepest watched queue. */
  int depth() throws IOException {
    int deepest = 0;
    for (String queue : queues) {
      deepest = Math.max(deepest, inspect.queueDeclarePassive(queue).getMessageCount());
    }
    maxDepthSeen = Math.max(maxDepthSeen, deepest);
    return deepest;
  }

  int maxDepthSeen() {
    return maxDepthSeen;
  }

  double pausedSeconds() {
    return pausedNanos / 1e9;
  }

  private void nack(long tag, boolean multiple) {
    nacked.addAndGet(settle(tag, multiple));
  }

  private int settle(long tag, boolean multiple) {
    int settled;
    if (multiple) {
      NavigableMap<Long, Boolean> done = outstanding.headMap(tag, true);
      settled = done.size();
      done.clear();
    } else {
      settled = outstanding.remove(tag) == null ? 0 : 1;
    }
    unconfirmed.release(settled);
    return settled;
  }

  private void waitForRoom() throws IOException, InterruptedException {
    if (depth() <= maxBacklog) {
      return;
    }
    long started = System.nanoTime();
    do {
      Thread.sleep(10);
    } while (depth() > maxBacklog);
    pausedNanos += System.nanoTime() - started;
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }
}
