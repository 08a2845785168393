package dev.onceonly.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What an ack costs RabbitMQ: a quorum queue is filled with persistent messages, then drained by a
 * consumer that acks each message on its own or one {@code basic.ack} with {@code multiple} per
 * {@code batch} messages, as the platform's committers do (docs/rabbitmq.md, "Acks"). Rounds
 * alternate between the two, and the CPU of the broker and of this process (the client) is counted
 * during the drains only; the first two rounds warm up and are not counted. Prints each round, the
 * medians per message and their ratio.
 *
 * <p>{@code AckCost <messages> <rounds> <batch>}; the queue {@code onceonly.ack-cost} in the
 * default vhost is made for the run and deleted after.
 */
public final class AckCost {

  private static final String QUEUE = "onceonly.ack-cost";
  private static final long SETTLE_MILLIS = 1_000;

  private AckCost() {}

  public static void main(String[] args) throws Exception {
    int messages = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    if (rounds < 4) {
      throw new IllegalArgumentException("at least 4 rounds: 2 to warm up, then 1 of each");
    }
    int batch = Integer.parseInt(args[2]);
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(System.getenv().getOrDefault("RABBITMQ_HOST", "127.0.0.1"));
    List<double[]> alone = new ArrayList<>();
    List<double[]> together = new ArrayList<>();
    try (Connection connection = factory.newConnection("onceonly-ack-cost")) {
      Channel admin = connection.createChannel();
      for (int round = 0; round < rounds; round++) {
        int every = round % 2 == 0 ? 1 : batch;
        admin.queueDelete(QUEUE);
        admin.queueDeclare(QUEUE, true, false, false, Map.of("x-queue-type", "quorum"));
        fill(connection, messages);
        double[] cost = drain(connection, messages, every);
        boolean warmUp = round < 2;
        if (!warmUp) {
          (every == 1 ? alone : together).add(cost);
        }
        System.out.printf(
            Locale.ROOT,
            "round %d: one ack per %2d messages: broker %.4f ms, client %.4f ms per message%s%n",
            round + 1,
            every,
            cost[0],
            cost[1],
            warmUp ? " (warm-up, not counted)" : "");
      }
      admin.queueDelete(QUEUE);
    }
    double brokerAlone = median(alone, 0);
    double brokerTogether = median(together, 0);
    double clientAlone = median(alone, 1);
    double clientTogether = median(together, 1);
    System.out.printf(
        Locale.ROOT,
        "medians per message, acked alone -> one ack per %d: broker %.4f -> %.4f ms (%.2f x),"
            + " client %.4f -> %.4f ms (%.2f x)%n",
        batch,
        brokerAlone,
        brokerTogether,
        brokerTogether / brokerAlone,
        clientAlone,
        clientTogether,
        clientTogether / clientAlone);
  }

  private static void fill(Connection connection, int messages) throws Exception {
    byte[] body = new byte[300];
    Arrays.fill(body, (byte) 'x');
    AMQP.BasicProperties persistent = new AMQP.BasicProperties.Builder().deliveryMode(2).build();
    Channel publisher = connection.createChannel();
    publisher.confirmSelect();
    for (int i = 1; i <= messages; i++) {
      publisher.basicPublish("", QUEUE, persistent, body);
      if (i % 500 == 0) {
        publisher.waitForConfirmsOrDie(30_000);
      }
    }
    publisher.waitForConfirmsOrDie(30_000);
    publisher.close();
  }

  /** Broker and client CPU, ms per message, while {@code messages} are consumed and acked. */
  private static double[] drain(Connection connection, int messages, int every) throws Exception {
    Channel channel = connection.createChannel();
    channel.basicQos(128);
    CountDownLatch consumed = new CountDownLatch(messages);
    CpuGroups cpu = new CpuGroups(0);
    cpu.start();
    long startNanos = System.nanoTime();
    channel.basicConsume(
        QUEUE,
        false,
        new DefaultConsumer(channel) {
          @Override
          public void handleDelivery(
              String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
              throws IOException {
            long tag = envelope.getDeliveryTag();
            if (every == 1) {
              channel.basicAck(tag, false);
            } else if (tag % every == 0 || tag == messages) {
              channel.basicAck(tag, true);
            }
            consumed.countDown();
          }
        });
    if (!consumed.await(120, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the drain stalled at " + consumed.getCount() + " left");
    }
    // The last acks reach the queue's log a moment after they were sent; closing the channel before
    // would give back the messages whose acks had not (a quorum queue returns them on close).
    Thread.sleep(SETTLE_MILLIS);
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    Map<String, Double> pct = cpu.stop();
    channel.close();
    double msPerMessage = seconds * 10.0 / messages; // 1 % of a core for a second = 10 ms
    return new double[] {
      pct.get(CpuGroups.RABBITMQ) * msPerMessage, pct.get(CpuGroups.BENCH) * msPerMessage
    };
  }

  private static double median(List<double[]> costs, int index) {
    List<Double> values = new ArrayList<>();
    costs.forEach(c -> values.add(c[index]));
    Collections.sort(values);
    return values.get(values.size() / 2);
  }
}
