package dev.onceonly.chaos;

import java.nio.file.Path;

/**
 * A scenario of the suite run on Kafka: a private PostgreSQL, a private Kafka broker (port base +
 * 92, its controller + 93; topics of {@value KafkaLab#PARTITIONS} partitions), the provider
 * sandbox, two consumer-service instances with {@code ONCEONLY_TRANSPORT=kafka} and two relays, all
 * its own and stopped when it ends; the stream, the fault and the judgement are the scenario's, as
 * on RabbitMQ. Logs in {@code chaos-run/kafka-<number>/}.
 */
final class OnKafka implements StandaloneScenario {

  /** The broker's port above the suite's port base (9092's tail). */
  static final int KAFKA_PORT = 92;

  private final Scenario scenario;

  OnKafka(Scenario scenario) {
    this.scenario = scenario;
  }

  @Override
  public int number() {
    return scenario.number;
  }

  @Override
  public String name() {
    return scenario.name;
  }

  @Override
  public Scenario.Result run(Stage stage) throws Exception {
    long started = System.nanoTime();
    Path logs = stage.runDir().resolve("kafka-" + scenario.number);
    PrivatePostgres pg = stage.teardown().add(PrivatePostgres.start(stage.portBase() + 432));
    PrivateKafka kafka =
        stage
            .teardown()
            .add(
                PrivateKafka.start(
                    stage.root(), stage.portBase() + KAFKA_PORT, KafkaLab.PARTITIONS));
    Fleet fleet =
        stage
            .teardown()
            .add(
                new Fleet(
                    stage.root(),
                    logs,
                    stage.portBase(),
                    pg.jdbcUrl(),
                    KafkaLab.consumerEnv(kafka)));
    fleet.start();
    Lab.say(
        "private PostgreSQL on %d, %s, fleet ready on Kafka (%d s); logs in %s",
        stage.portBase() + 432, kafka, (System.nanoTime() - started) / 1_000_000_000, logs);
    return scenario.execute(new KafkaLab(pg, kafka, fleet, stage.mode(), stage.seed()));
  }
}
