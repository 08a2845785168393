package dev.onceonly.pipeline;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Publishes to {@code loyalty.events} as a producer would: persistent, JSON, mandatory (a message
 * no queue takes is returned and counted), with publisher confirms awaited before it returns.
 */
public final class Publisher implements AutoCloseable {

  static final String EXCHANGE = "loyalty.events";
  private static final int CONFIRM_EVERY = 500;
  private static final long CONFIRM_TIMEOUT_MS = 30_000;
  private static final AMQP.BasicProperties PROPERTIES =
      new AMQP.BasicProperties.Builder().contentType("application/json").deliveryMode(2).build();

  private final Connection connection;
  private final AtomicInteger returned = new AtomicInteger();

  public Publisher(Options.Broker broker) throws IOException, TimeoutException {
    connection = connect(broker, "onceonly-feed");
    try (Channel channel = connection.createChannel()) {
      channel.exchangeDeclarePassive(EXCHANGE);
    } catch (IOException e) {
      connection.abort();
      throw new IOException(
          "exchange "
              + EXCHANGE
              + " does not exist in vhost "
              + broker.vhost()
              + ": start consumer-service first (it declares the exchange and queues)",
          e);
    }
  }

  public static Connection connect(Options.Broker broker, String name)
      throws IOException, TimeoutException {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(broker.host());
    factory.setPort(broker.port());
    factory.setVirtualHost(broker.vhost());
    factory.setUsername(broker.user());
    factory.setPassword(broker.password());
    return factory.newConnection(name);
  }

  /** Publishes in order on one channel and waits for every confirm. */
  public void publish(List<Outgoing> messages) throws Exception {
    try (Channel channel = confirmingChannel()) {
      int sinceConfirm = 0;
      for (Outgoing m : messages) {
        channel.basicPublish(EXCHANGE, m.routingKey(), true, PROPERTIES, m.body());
        if (++sinceConfirm == CONFIRM_EVERY) {
          channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
          sinceConfirm = 0;
        }
      }
      channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
    }
  }

  /**
   * Publishes every message twice at the same moment, from two threads with a channel each: a
   * barrier releases both copies of a message together, as when a broker redelivers while the first
   * delivery is still being handled.
   */
  public void publishTwice(List<Outgoing> messages) throws Exception {
    CyclicBarrier together = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<?> a = threads.submit(() -> publishInStep(messages, together));
      Future<?> b = threads.submit(() -> publishInStep(messages, together));
      a.get(5, TimeUnit.MINUTES);
      b.get(5, TimeUnit.MINUTES);
    } finally {
      threads.shutdownNow();
    }
  }

  private Void publishInStep(List<Outgoing> messages, CyclicBarrier together)
      throws IOException, InterruptedException, TimeoutException, BrokenBarrierException {
    try (Channel channel = confirmingChannel()) {
      for (Outgoing m : messages) {
        together.await(10, TimeUnit.SECONDS);
        channel.basicPublish(EXCHANGE, m.routingKey(), true, PROPERTIES, m.body());
      }
      channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT_MS);
    }
    return null;
  }

  private Channel confirmingChannel() throws IOException {
    Channel channel = connection.createChannel();
    channel.confirmSelect();
    channel.addReturnListener(r -> returned.incrementAndGet());
    return channel;
  }

  /** Messages the broker returned because no queue was bound for them. */
  public int returned() {
    return returned.get();
  }

  @Override
  public void close() throws IOException {
    connection.close();
  }
}
