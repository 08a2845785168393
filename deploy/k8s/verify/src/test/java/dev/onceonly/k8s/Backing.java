package dev.onceonly.k8s;

import org.testcontainers.DockerClientFactory;

/**
 * What stands for the dev overlay's PostgreSQL and RabbitMQ while its services run here: the dev
 * overlay's own images in Testcontainers where Docker answers, else the machine's servers with the
 * role, database, user and vhost the dev settings name, created for the run and removed after it.
 */
interface Backing extends AutoCloseable {

  /** host and port standing for a cluster Service's port. */
  record Endpoint(String host, int port) {}

  /** The dev settings this run needs (names and passwords, from the dev ConfigMap and Secret). */
  record Names(
      String database,
      String dbUser,
      String dbPassword,
      String vhost,
      String brokerUser,
      String brokerPassword) {}

  /** Where a Service of the overlay (postgres, rabbitmq) is reached from here. */
  Endpoint endpoint(String service);

  /**
   * The names this run uses for the overlay's: the same in containers, suffixed on shared servers.
   */
  Names names();

  @Override
  void close();

  static Backing start(Rendered dev, Names names) {
    boolean docker;
    try {
      docker = DockerClientFactory.instance().isDockerAvailable();
    } catch (Throwable e) {
      docker = false;
    }
    return docker ? ContainerBacking.start(dev) : LocalBacking.start(names);
  }
}
