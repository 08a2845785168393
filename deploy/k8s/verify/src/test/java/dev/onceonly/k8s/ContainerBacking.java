package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * Where Docker answers: the dev overlay's own PostgreSQL and RabbitMQ containers (their images and
 * environment from the render), so the names need no suffix.
 */
final class ContainerBacking implements Backing {

  private final GenericContainer<?> postgres;
  private final GenericContainer<?> rabbitmq;
  private final Names names;

  private ContainerBacking(
      GenericContainer<?> postgres, GenericContainer<?> rabbitmq, Names names) {
    this.postgres = postgres;
    this.rabbitmq = rabbitmq;
    this.names = names;
  }

  static ContainerBacking start(Rendered dev) {
    GenericContainer<?> postgres = container(dev, "postgres", 5432);
    postgres.waitingFor(
        Wait.forLogMessage(".*database system is ready to accept connections.*", 2));
    GenericContainer<?> rabbitmq = container(dev, "rabbitmq", 5672);
    rabbitmq.waitingFor(Wait.forLogMessage(".*Server startup complete.*", 1));
    postgres.start();
    rabbitmq.start();
    Map<String, String> pg = postgres.getEnvMap();
    Map<String, String> mq = rabbitmq.getEnvMap();
    return new ContainerBacking(
        postgres,
        rabbitmq,
        new Names(
            pg.get("POSTGRES_DB"),
            pg.get("POSTGRES_USER"),
            pg.get("POSTGRES_PASSWORD"),
            mq.get("RABBITMQ_DEFAULT_VHOST"),
            mq.get("RABBITMQ_DEFAULT_USER"),
            mq.get("RABBITMQ_DEFAULT_PASS")));
  }

  private static GenericContainer<?> container(Rendered dev, String name, int port) {
    JsonNode container = ContainerEnv.onlyContainer(dev.one("Deployment", name));
    Map<String, String> env = new HashMap<>();
    ContainerEnv.of(dev, container).forEach((k, v) -> env.put(k, v.value()));
    GenericContainer<?> started = new GenericContainer<>(container.path("image").asText());
    started.withEnv(env).withExposedPorts(port);
    return started;
  }

  @Override
  public Endpoint endpoint(String service) {
    return switch (service) {
      case "postgres" -> new Endpoint(postgres.getHost(), postgres.getMappedPort(5432));
      case "rabbitmq" -> new Endpoint(rabbitmq.getHost(), rabbitmq.getMappedPort(5672));
      default -> throw new AssertionError("no container for Service " + service);
    };
  }

  @Override
  public Names names() {
    return names;
  }

  @Override
  public void close() {
    rabbitmq.stop();
    postgres.stop();
  }
}
