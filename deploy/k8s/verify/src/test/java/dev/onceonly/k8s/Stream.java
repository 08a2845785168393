package dev.onceonly.k8s;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.k8s.Backing.Endpoint;
import dev.onceonly.k8s.Backing.Names;
import dev.onceonly.model.EventCodec;
import dev.onceonly.model.EventType;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.KafkaTopics;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The traffic of the run and what it left: orders published as a producer would (every tenth twice,
 * as a redelivery), and the claims, ledger rows and outbox rows they must have made once.
 */
final class Stream implements AutoCloseable {

  final String run = "k8s" + UUID.randomUUID().toString().substring(0, 8);
  final AtomicInteger published = new AtomicInteger();
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private final String url;
  private final Names names;
  private final Connection broker;
  private final ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor();

  /** A stream to RabbitMQ at {@code rabbit}, or, where it is null, one published to Kafka. */
  Stream(Endpoint db, Endpoint rabbit, Names names) throws Exception {
    this.url = "jdbc:postgresql://" + db.host() + ":" + db.port() + "/" + names.database();
    this.names = names;
    if (rabbit == null) {
      this.broker = null;
      return;
    }
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(rabbit.host());
    factory.setPort(rabbit.port());
    factory.setUsername(names.brokerUser());
    factory.setPassword(names.brokerPassword());
    factory.setVirtualHost(names.vhost());
    this.broker = factory.newConnection("k8s-verify");
  }

  /** Publishes {@code orders} orders, {@code perTick} every 100 ms, in the background. */
  void publish(int orders, int perTick) throws Exception {
    Channel channel = broker.createChannel();
    channel.confirmSelect();
    AMQP.BasicProperties props =
        new AMQP.BasicProperties.Builder().contentType("application/json").deliveryMode(2).build();
    AtomicInteger next = new AtomicInteger();
    publisher.scheduleAtFixedRate(
        () -> {
          try {
            for (int k = 0; k < perTick && next.get() < orders; k++) {
              int i = next.getAndIncrement();
              OrderCompleted order = order(i);
              byte[] body = EventCodec.encode(order);
              channel.basicPublish(
                  EventType.EXCHANGE, order.type().routingKey(), true, props, body);
              if (i % 10 == 0) {
                channel.basicPublish(
                    EventType.EXCHANGE, order.type().routingKey(), true, props, body);
              }
            }
            channel.waitForConfirmsOrDie(10_000);
            published.set(next.get());
          } catch (Exception e) {
            failure.compareAndSet(null, e);
            throw new IllegalStateException(e);
          }
        },
        0,
        100,
        TimeUnit.MILLISECONDS);
  }

  /**
   * Publishes {@code orders} orders to Kafka as a producer would (keyed by customer, the id in the
   * header message-id), every tenth twice, each acknowledged by the broker.
   */
  void publishTo(KafkaTopics kafka, int orders) throws Exception {
    for (int i = 0; i < orders; i++) {
      OrderCompleted order = order(i);
      String body = new String(EventCodec.encode(order), StandardCharsets.UTF_8);
      for (int copy = 0; copy < (i % 10 == 0 ? 2 : 1); copy++) {
        kafka.publish(order.type().routingKey(), order.messageKey(), order.customerId(), body);
      }
      published.set(i + 1);
    }
  }

  /** Publishes one order with these AMQP headers (a producer's trace context), confirmed. */
  void publishOne(OrderCompleted order, Map<String, Object> headers) throws Exception {
    try (Channel channel = broker.createChannel()) {
      channel.confirmSelect();
      AMQP.BasicProperties props =
          new AMQP.BasicProperties.Builder()
              .contentType("application/json")
              .deliveryMode(2)
              .headers(headers)
              .build();
      channel.basicPublish(
          EventType.EXCHANGE, order.type().routingKey(), true, props, EventCodec.encode(order));
      channel.waitForConfirmsOrDie(10_000);
    }
  }

  OrderCompleted order(int i) {
    return new OrderCompleted(
        UUID.nameUUIDFromBytes((run + i).getBytes()),
        run + "-o" + i,
        run + "-c" + (i % 50),
        "customer" + (i % 50) + "@example.com",
        1_000 + i,
        "EUR",
        Instant.now());
  }

  void checkPublisher() throws Exception {
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  long claims(String consumer) {
    return count(
        "SELECT count(*) FROM onceonly.processed_messages WHERE consumer = ? AND message_key LIKE ?",
        consumer,
        "order-completed:" + run + "-%");
  }

  long ledgerRows() {
    return count("SELECT count(*) FROM loyalty.point_ledger WHERE order_id LIKE ?", run + "-%");
  }

  /** Customers of this run whose balance differs from the sum of their ledger. */
  long balancesOffLedger() {
    return count(
        """
        SELECT count(*) FROM loyalty.balances b
         WHERE b.customer_id LIKE ?
           AND b.points <> (SELECT coalesce(sum(points), 0) FROM loyalty.point_ledger l
                             WHERE l.customer_id = b.customer_id)
        """,
        run + "-%");
  }

  long receipts(String status) {
    return count(
        "SELECT count(*) FROM outbox.outbox WHERE idempotency_key LIKE ? AND status = ?",
        "%:order-completed:" + run + "-%",
        status);
  }

  long receipts() {
    return count(
        "SELECT count(*) FROM outbox.outbox WHERE idempotency_key LIKE ?",
        "%:order-completed:" + run + "-%");
  }

  /** Rows still leased (in flight) by lease owners starting with {@code relay}. */
  long inFlightLeasedBy(String relay) {
    return count(
        "SELECT count(*) FROM outbox.outbox WHERE status = 'in_flight' AND lease_owner LIKE ?",
        relay + "%");
  }

  long unfinished() {
    return count("SELECT count(*) FROM outbox.outbox WHERE status IN ('pending', 'in_flight')");
  }

  long attemptsBy(String relay) {
    return count("SELECT count(*) FROM outbox.outbox_attempts WHERE relay_id LIKE ?", relay + "%");
  }

  String status(String key) {
    return text("SELECT status FROM outbox.outbox WHERE idempotency_key = ?", key);
  }

  void insertOutbox(String kind, String key, String payload) {
    count(
        "WITH row AS (INSERT INTO outbox.outbox (kind, payload, idempotency_key) VALUES (?, ?::jsonb, ?)"
            + " RETURNING id) SELECT count(*) FROM row",
        kind,
        payload,
        key);
  }

  long queueDepth(String queue) throws Exception {
    try (Channel channel = broker.createChannel()) {
      return channel.queueDeclarePassive(queue).getMessageCount();
    }
  }

  long count(String sql, Object... args) {
    return Long.parseLong(text(sql, args));
  }

  private String text(String sql, Object... args) {
    try (var c = DriverManager.getConnection(url, names.dbUser(), names.dbPassword());
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  @Override
  public void close() throws Exception {
    publisher.shutdownNow();
    if (broker != null) {
      broker.close();
    }
  }
}
