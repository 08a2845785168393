package dev.onceonly.pipeline;

import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Where the feed publishes: RabbitMQ's exchange ({@link Publisher}) or Kafka's topics ({@link
 * KafkaPublisher}). Each returns once the broker has acknowledged every message.
 */
public interface Sink extends AutoCloseable {

  /** Publishes in order and waits for every acknowledgement. */
  void publish(List<Outgoing> messages) throws Exception;

  /**
   * Publishes every message twice at the same moment, from two lanes (a channel or a producer
   * each): a barrier releases both copies of a message together, as when a broker redelivers while
   * the first delivery is still being handled.
   */
  void publishTwice(List<Outgoing> messages) throws Exception;

  /** Messages the broker could not route (RabbitMQ's returns; none on Kafka). */
  int returned();

  /** The sink of {@code --transport}: {@code rabbitmq} (the default) or {@code kafka}. */
  static Sink open(Options options) throws Exception {
    return switch (options.transport()) {
      case RABBITMQ -> new Publisher(options.broker());
      case KAFKA -> new KafkaPublisher(options.kafkaBootstrap());
    };
  }

  /** One of the two lanes of {@link #publishTwice}. */
  interface Lane extends AutoCloseable {
    void send(Outgoing message) throws Exception;

    /** Waits until the broker acknowledged everything sent. */
    void awaitAcknowledged() throws Exception;
  }

  /** A lane to publish on, opened on the lane's own thread. */
  interface LaneFactory {
    Lane open() throws Exception;
  }

  /** {@link #publishTwice} over two lanes from {@code lanes}. */
  static void inStep(List<Outgoing> messages, LaneFactory lanes) throws Exception {
    CyclicBarrier together = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Void>> both =
          List.of(
              threads.submit(() -> laneInStep(messages, together, lanes)),
              threads.submit(() -> laneInStep(messages, together, lanes)));
      for (Future<Void> lane : both) {
        lane.get(5, TimeUnit.MINUTES);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private static Void laneInStep(List<Outgoing> messages, CyclicBarrier together, LaneFactory lanes)
      throws Exception {
    try (Lane lane = lanes.open()) {
      for (Outgoing m : messages) {
        together.await(10, TimeUnit.SECONDS);
        lane.send(m);
      }
      lane.awaitAcknowledged();
    }
    return null;
  }
}
