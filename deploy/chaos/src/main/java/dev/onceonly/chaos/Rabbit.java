package dev.onceonly.chaos;

import dev.onceonly.model.BrokerNodes;
import java.io.IOException;
import java.util.List;

/**
 * What a lab needs of its RabbitMQ, whether one private node ({@link PrivateRabbit}) or a cluster
 * of them ({@link RabbitCluster}).
 */
interface Rabbit extends AutoCloseable {

  /** The AMQP addresses of every node, as the services and the stream are given them. */
  List<BrokerNodes.Node> nodes();

  /**
   * Before a scenario: every node's application running, started again where it is not (a scenario
   * that failed half-way may have left one stopped).
   */
  void ensureRunning() throws IOException, InterruptedException;

  /** Empties a queue (on a cluster, through any running node). */
  void purge(String queue) throws IOException, InterruptedException;

  /** The pids of the nodes that run (their Erlang VMs). */
  List<Long> pids();
}
