package dev.onceonly.chaos;

import com.rabbitmq.client.Connection;
import dev.onceonly.pipeline.DeadLetterPeek;
import dev.onceonly.pipeline.Options;
import dev.onceonly.pipeline.Publisher;
import dev.onceonly.pipeline.SandboxStats;
import dev.onceonly.pipeline.Sink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Everything a scenario works with: the private database and broker, the fleet of services, the
 * stream publisher, the mode, a seeded random, and the count of faults injected. The broker is
 * RabbitMQ here; {@link KafkaLab} puts a Kafka broker in its place.
 */
class Lab {

  static final List<String> DEAD_LETTER_QUEUES =
      List.of("onceonly.loyalty.dlq", "onceonly.receipts.dlq", "onceonly.profiles.dlq");

  static final List<String> QUEUES =
      Stream.concat(
              Stream.of("onceonly.loyalty", "onceonly.receipts", "onceonly.profiles"),
              DEAD_LETTER_QUEUES.stream())
          .toList();

  final PrivatePostgres postgres;
  final Rabbit rabbit;
  final Fleet fleet;
  final ChaosDb db;
  final Options.Broker broker;
  final Mode mode;
  final Random random;
  final AtomicInteger faults = new AtomicInteger();

  Lab(PrivatePostgres postgres, Rabbit rabbit, Fleet fleet, Mode mode, long seed) {
    this(postgres, postgres.jdbcUrl(), rabbit, fleet, mode, seed);
  }

  /**
   * A lab whose database the services reach by {@code jdbcUrl}; {@code postgres} may be null where
   * a standalone scenario runs engines of its own (it then never calls {@link #reset}).
   */
  Lab(PrivatePostgres postgres, String jdbcUrl, Rabbit rabbit, Fleet fleet, Mode mode, long seed) {
    this(
        postgres,
        jdbcUrl,
        rabbit,
        new Options.Broker(rabbit.nodes(), "/", "guest", "guest"),
        fleet,
        mode,
        seed);
  }

  /** For a lab on another broker ({@link KafkaLab}): {@code rabbit} and {@code broker} null. */
  Lab(
      PrivatePostgres postgres,
      String jdbcUrl,
      Rabbit rabbit,
      Options.Broker broker,
      Fleet fleet,
      Mode mode,
      long seed) {
    this.postgres = postgres;
    this.rabbit = rabbit;
    this.fleet = fleet;
    this.mode = mode;
    this.db = new ChaosDb(jdbcUrl);
    this.broker = broker;
    this.random = new Random(seed);
  }

  Traffic traffic() {
    return new Traffic(this::sink, db);
  }

  /** A publisher of the stream: the exchange {@code loyalty.events}. */
  Sink sink() throws Exception {
    return new Publisher(broker);
  }

  /** Sandbox faults as JSON for {@code PUT /sandbox/faults}; {@code null} switches them off. */
  void providerFaults(String json) throws Exception {
    if (json == null) {
      Calls.send("DELETE", fleet.sandboxUrl + "/sandbox/faults", null);
    } else {
      Calls.send("PUT", fleet.sandboxUrl + "/sandbox/faults", json);
    }
  }

  /**
   * A clean slate: the database and the broker running (a scenario that failed half-way may have
   * left one stopped), faults off, every service up, tables emptied, queues purged, sandbox reset.
   */
  void reset() throws Exception {
    try {
      db.figures();
    } catch (java.sql.SQLException e) {
      say("PostgreSQL does not answer (%s): starting it", e.getMessage());
      postgres.startAgain();
    }
    brokerUp();
    providerFaults(null);
    fleet.heal();
    db.empty();
    emptyQueues();
    Calls.send("POST", fleet.sandboxUrl + "/sandbox/reset", null);
    faults.set(0);
  }

  /** Starts the broker where a scenario that failed half-way left it stopped. */
  void brokerUp() throws Exception {
    rabbit.ensureRunning();
  }

  /** Empties the consumers' queues and dead-letter queues. */
  void emptyQueues() throws Exception {
    for (String queue : QUEUES) {
      rabbit.purge(queue);
    }
  }

  /** The suite's single private node, which scenarios 4 and 7 act on; fails on a cluster. */
  PrivateRabbit node() {
    if (rabbit instanceof PrivateRabbit node) {
      return node;
    }
    throw new IllegalStateException("this scenario runs on the single private node, not a cluster");
  }

  /** The three dead-letter queues, read without taking their messages. */
  List<DeadLetterPeek.Queue> deadLetters() throws Exception {
    List<DeadLetterPeek.Queue> deadLetters = new ArrayList<>();
    try (Connection amqp = Publisher.connect(broker, "onceonly-chaos-observe")) {
      for (String queue : DEAD_LETTER_QUEUES) {
        deadLetters.add(DeadLetterPeek.peek(amqp, queue, 10_000));
      }
    }
    return deadLetters;
  }

  /** The state the invariants are judged on. */
  Observation observe() throws Exception {
    List<DeadLetterPeek.Queue> deadLetters = deadLetters();
    long effective = 0;
    Map<String, Long> effects = new HashMap<>();
    for (String api : List.of("receipts", "payouts")) {
      SandboxStats stats = SandboxStats.fetch(fleet.sandboxUrl, api);
      effective += stats.effectiveCalls();
      stats.effects().forEach(e -> effects.merge(e.key(), 1L, Long::sum));
    }
    return new Observation(
        db.counts(ChaosDb.SQL_CREDITS_PER_ORDER),
        db.counts(ChaosDb.SQL_DEBITS_PER_REDEMPTION),
        db.figures(),
        db.counts(dev.onceonly.pipeline.PipelineDb.SQL_BALANCES),
        db.counts(dev.onceonly.pipeline.PipelineDb.SQL_PROFILE_VERSIONS),
        db.texts(ChaosDb.SQL_OUTBOX_KEYS),
        effective,
        effects,
        deadLetters);
  }

  /** A duration of {@code base} ± {@code spread}, drawn from the suite's seed. */
  Duration jitter(Duration base, Duration spread) {
    long ms = base.toMillis() + (long) ((random.nextDouble() * 2 - 1) * spread.toMillis());
    return Duration.ofMillis(Math.max(0, ms));
  }

  static void say(String format, Object... args) {
    System.out.printf("  " + format + "%n", args);
  }
}
