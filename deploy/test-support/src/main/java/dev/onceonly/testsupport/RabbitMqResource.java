package dev.onceonly.testsupport;

import com.rabbitmq.client.ConnectionFactory;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.testcontainers.rabbitmq.RabbitMQContainer;

/**
 * RabbitMQ for a Quarkus test: a Testcontainers container where Docker answers, otherwise the
 * machine's own broker on 127.0.0.1:5672 with guest/guest in a test vhost emptied at the JVM's
 * first use and deleted when it exits ({@link Isolation#localVhost}), so queues left by earlier
 * runs, of whatever type, never meet this one.
 */
public class RabbitMqResource implements QuarkusTestResourceLifecycleManager {

  public static final String LOCAL_HOST = "127.0.0.1";
  public static final int LOCAL_PORT = 5672;

  private RabbitMQContainer container;

  @Override
  public Map<String, String> start() {
    if (Docker.available()) {
      container = new RabbitMQContainer("rabbitmq:3.13-alpine");
      container.start();
      return config(
          container.getHost(),
          container.getAmqpPort(),
          container.getAdminUsername(),
          container.getAdminPassword(),
          "/");
    }
    LocalService.requireListening("RabbitMQ", LOCAL_HOST, LOCAL_PORT, "rabbitmq-server -detached");
    return config(LOCAL_HOST, LOCAL_PORT, "guest", "guest", Isolation.localVhost());
  }

  @Override
  public void stop() {
    if (container != null) {
      container.stop();
    }
  }

  /** A client connection factory for the broker {@code config} (what {@link #start} returned). */
  public static ConnectionFactory connectionFactory(Map<String, String> config) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(config.get("rabbitmq-host"));
    factory.setPort(Integer.parseInt(config.get("rabbitmq-port")));
    factory.setUsername(config.get("rabbitmq-username"));
    factory.setPassword(config.get("rabbitmq-password"));
    factory.setVirtualHost(config.get("rabbitmq-virtual-host"));
    return factory;
  }

  private static Map<String, String> config(
      String host, int port, String user, String password, String vhost) {
    return Map.of(
        "rabbitmq-host", host,
        "rabbitmq-port", Integer.toString(port),
        "rabbitmq-username", user,
        "rabbitmq-password", password,
        "rabbitmq-virtual-host", vhost);
  }
}
