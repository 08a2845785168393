package dev.onceonly.chaos;

/**
 * Scenario 4: RabbitMQ misbehaves while the stream flows: every connection closed by the broker
 * ({@code rabbitmqctl close_all_connections}), then the broker application stopped and started
 * again ({@code stop_app} / {@code start_app}). Consumers must reconnect and take up their queues;
 * messages unacknowledged at the cut are redelivered; the producer republishes what the broker did
 * not confirm.
 */
final class BrokerFaults extends Scenario {

  BrokerFaults() {
    super(4, "RabbitMQ: close all connections; stop_app/start_app");
  }

  @Override
  void inject(Lab lab, long untilNanos) throws Exception {
    long quarter = lab.mode.window().toNanos() / 4;
    Thread.sleep(quarter / 1_000_000);
    int closed = lab.node().closeAllConnections("onceonly chaos scenario 4");
    lab.faults.incrementAndGet();
    Lab.say("closed all %d broker connections", closed);
    Thread.sleep(quarter / 1_000_000);
    lab.node().stopApp();
    lab.faults.incrementAndGet();
    Lab.say("broker application stopped");
    Thread.sleep(quarter / 1_000_000);
    lab.node().startApp();
    Lab.say("broker application started again");
  }
}
