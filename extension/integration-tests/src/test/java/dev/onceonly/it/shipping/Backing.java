package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.HashMap;
import java.util.Map;

/**
 * PostgreSQL (a fresh database of the test's own) and RabbitMQ for services run as processes, and
 * the environment that points a service at them.
 */
final class Backing implements AutoCloseable {

  private final PostgresResource postgres = new PostgresResource();
  private final RabbitMqResource rabbit = new RabbitMqResource();
  final Map<String, String> db;
  final Map<String, String> broker;

  Backing(String database) {
    postgres.init(Map.of("database", database, "fresh", "true"));
    db = postgres.start();
    broker = rabbit.start();
  }

  /** DB_* and RABBITMQ_* as the services read them. */
  Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("DB_URL", db.get("quarkus.datasource.jdbc.url"));
    env.put("DB_USER", db.get("quarkus.datasource.username"));
    env.put("DB_PASSWORD", db.get("quarkus.datasource.password"));
    env.put("RABBITMQ_HOST", broker.get("rabbitmq-host"));
    env.put("RABBITMQ_PORT", broker.get("rabbitmq-port"));
    env.put("RABBITMQ_USER", broker.get("rabbitmq-username"));
    env.put("RABBITMQ_PASSWORD", broker.get("rabbitmq-password"));
    env.put("RABBITMQ_VHOST", broker.get("rabbitmq-virtual-host"));
    return env;
  }

  Shop shop() {
    return Shop.connect(
        broker.get("rabbitmq-host"),
        Integer.parseInt(broker.get("rabbitmq-port")),
        broker.get("rabbitmq-virtual-host"));
  }

  /** One shipment and one label to create for {@code order}, whatever was delivered twice. */
  void assertShippedOnce(String order) throws Exception {
    assertThat(count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
        .as("shipments of " + order)
        .isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM outbox.outbox WHERE kind = 'create-label'"
                    + " AND payload->>'orderId' = ?",
                order))
        .as("labels of " + order)
        .isEqualTo(1);
  }

  long count(String sql, Object... params) throws Exception {
    try (Connection c = connect()) {
      return Sql.count(c, sql, params);
    }
  }

  int update(String sql, Object... params) throws Exception {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }

  Connection connect() throws Exception {
    return DriverManager.getConnection(
        db.get("quarkus.datasource.jdbc.url"),
        db.get("quarkus.datasource.username"),
        db.get("quarkus.datasource.password"));
  }

  @Override
  public void close() {
    postgres.stop();
    rabbit.stop();
  }
}
