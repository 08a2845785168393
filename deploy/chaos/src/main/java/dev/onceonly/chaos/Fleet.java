package dev.onceonly.chaos;

import dev.onceonly.model.BrokerNodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The processes under test: the provider sandbox, two consumer-service instances and two
 * outbox-relays, each on ports of its own, all against the private database and broker. The relays'
 * timeouts, lease and backoff are shortened so that a run recovers within seconds; every other
 * setting is the services' own.
 */
final class Fleet implements AutoCloseable {

  static final String OPERATOR = "operator";
  static final Duration READY = Duration.ofSeconds(120);

  /**
   * Relay settings for the suite: a provider call may take 1 s to connect and 3 s to answer, a
   * lease lasts 8 s (more than both, as the relay checks at start), retries start at 200 ms and
   * back off to 2 s, a Retry-After is honoured up to 5 s, replayed rows go 200 a second. A row has
   * 20 attempts instead of 10: with backoff cut from minutes to 2 s, 10 attempts span about half a
   * minute of a bad provider where the services' defaults span about nine (1 s doubling to 256 s),
   * and two full runs each parked one row of 2,134 at 10 attempts (a hang past the read timeout
   * also costs the retries that meet the 409 of the call still in progress). A destination's
   * breaker, opened by 10 outages in a row, probes after 2 s instead of 30 s, in proportion.
   */
  static final List<String> RELAY_SETTINGS =
      List.of(
          "-Drelay.lease-duration=8s",
          "-Drelay.poll-interval=1s",
          "-Drelay.shutdown-timeout=5s",
          "-Drelay.retry-after-max=5s",
          "-Drelay.stats-refresh=1s",
          "-Drelay.operations.replay-rate-per-second=200",
          "-Drelay.destinations.\"send_receipt\".http.connect-timeout=1s",
          "-Drelay.destinations.\"send_receipt\".http.read-timeout=3s",
          "-Drelay.destinations.\"send_receipt\".backoff.initial=200ms",
          "-Drelay.destinations.\"send_receipt\".backoff.max=2s",
          "-Drelay.destinations.\"send_receipt\".max-attempts=20",
          "-Drelay.destinations.\"send_receipt\".breaker.cool-down=2s",
          "-Drelay.destinations.\"issue_payout\".http.connect-timeout=1s",
          "-Drelay.destinations.\"issue_payout\".http.read-timeout=3s",
          "-Drelay.destinations.\"issue_payout\".backoff.initial=200ms",
          "-Drelay.destinations.\"issue_payout\".backoff.max=2s",
          "-Drelay.destinations.\"issue_payout\".max-attempts=20",
          "-Drelay.destinations.\"issue_payout\".breaker.cool-down=2s");

  /** The lease above. */
  static final Duration RELAY_LEASE = Duration.ofSeconds(8);

  private static final List<String> JVM =
      List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");

  final ServiceProcess sandbox;
  final List<ServiceProcess> consumers = new ArrayList<>();
  final List<ServiceProcess> relays = new ArrayList<>();
  final String sandboxUrl;
  final String operatorPassword;
  private final List<String> relayApiUrls = new ArrayList<>();
  private final List<String> relayManagementUrls = new ArrayList<>();
  final int portBase;
  private final Path root;
  private final Path runDir;
  private final Map<String, String> consumerEnv = new HashMap<>();

  /** The fleet on RabbitMQ: one node, or the nodes of a cluster. */
  Fleet(Path root, Path runDir, int portBase, String dbUrl, List<BrokerNodes.Node> brokerNodes)
      throws IOException {
    this(root, runDir, portBase, dbUrl, rabbitEnv(brokerNodes));
  }

  /**
   * The fleet whose consumers reach their broker through {@code brokerEnv} (RabbitMQ's variables,
   * or {@code ONCEONLY_TRANSPORT=kafka} and Kafka's).
   */
  Fleet(Path root, Path runDir, int portBase, String dbUrl, Map<String, String> brokerEnv)
      throws IOException {
    this.portBase = portBase;
    this.root = root;
    this.runDir = runDir;
    Files.createDirectories(runDir);
    operatorPassword = HexFormat.of().formatHex(random(12));
    Map<String, String> auth = new HashMap<>();
    auth.put(
        "QUARKUS_SECURITY_USERS_EMBEDDED_USERS_" + OPERATOR.toUpperCase(),
        hash(OPERATOR, operatorPassword));
    auth.put("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_" + OPERATOR.toUpperCase(), "outbox-admin");
    Map<String, String> db = Map.of("DB_URL", dbUrl, "DB_USER", "postgres", "DB_PASSWORD", "");

    int sandboxPort = portBase;
    sandboxUrl = "http://127.0.0.1:" + sandboxPort;
    sandbox =
        new ServiceProcess(
            "provider-sandbox",
            root.resolve("deploy/provider-sandbox/target/quarkus-app/quarkus-run.jar"),
            JVM,
            Map.of("QUARKUS_HTTP_PORT", Integer.toString(sandboxPort)),
            sandboxUrl,
            runDir.resolve("provider-sandbox.log"));
    consumerEnv.putAll(db);
    consumerEnv.putAll(auth);
    consumerEnv.putAll(brokerEnv);
    consumerEnv.put("CONSUMER_THREADS", "2");
    consumerEnv.put("QUEUE_DEPTH_REFRESH", "2s");
    for (int i = 1; i <= 2; i++) {
      consumers.add(consumer("consumer-" + i, portBase + i, portBase + 10 + i));
    }
    for (int i = 1; i <= 2; i++) {
      Map<String, String> env = new HashMap<>(db);
      env.putAll(auth);
      env.put("HTTP_PORT", Integer.toString(portBase + 2 + i));
      env.put("MANAGEMENT_PORT", Integer.toString(portBase + 12 + i));
      env.put("RELAY_ID", "relay-" + i);
      env.put("PROVIDER_URL", sandboxUrl);
      List<String> options = new ArrayList<>(JVM);
      options.addAll(RELAY_SETTINGS);
      relayApiUrls.add("http://127.0.0.1:" + (portBase + 2 + i));
      relayManagementUrls.add("http://127.0.0.1:" + (portBase + 12 + i));
      relays.add(
          new ServiceProcess(
              "relay-" + i,
              root.resolve("outbox-relay/target/quarkus-app/quarkus-run.jar"),
              options,
              env,
              relayManagementUrls.get(i - 1),
              runDir.resolve("relay-" + i + ".log")));
    }
  }

  /**
   * A consumer-service instance like the fleet's two, on ports of its own: not started, not one of
   * {@link #consumers} (scenario 16 adds members to a consumer group with it).
   */
  ServiceProcess consumer(String name, int httpPort, int managementPort) {
    Map<String, String> env = new HashMap<>(consumerEnv);
    env.put("HTTP_PORT", Integer.toString(httpPort));
    env.put("MANAGEMENT_PORT", Integer.toString(managementPort));
    return new ServiceProcess(
        name,
        root.resolve("consumer-service/target/quarkus-app/quarkus-run.jar"),
        JVM,
        env,
        "http://127.0.0.1:" + managementPort,
        runDir.resolve(name + ".log"));
  }

  /** RabbitMQ's variables for the services: one node's host and port, or a cluster's list. */
  private static Map<String, String> rabbitEnv(List<BrokerNodes.Node> brokerNodes) {
    Map<String, String> env = new HashMap<>();
    if (brokerNodes.size() == 1) {
      env.put("RABBITMQ_HOST", brokerNodes.get(0).host());
      env.put("RABBITMQ_PORT", Integer.toString(brokerNodes.get(0).port()));
    } else {
      env.put("RABBITMQ_ADDRESSES", BrokerNodes.text(brokerNodes));
    }
    env.put("RABBITMQ_USER", "guest");
    env.put("RABBITMQ_PASSWORD", "guest");
    env.put("RABBITMQ_VHOST", "/");
    return env;
  }

  /** The jars the fleet runs; the suite refuses to start if one is missing. */
  static List<Path> jars(Path root) {
    return List.of(
        root.resolve("deploy/provider-sandbox/target/quarkus-app/quarkus-run.jar"),
        root.resolve("consumer-service/target/quarkus-app/quarkus-run.jar"),
        root.resolve("outbox-relay/target/quarkus-app/quarkus-run.jar"));
  }

  /**
   * Sandbox and the first consumer (which migrates both schemas) first, then the second consumer
   * and the relays, which only check the schema.
   */
  void start() throws IOException, InterruptedException {
    sandbox.start();
    consumers.get(0).start();
    sandbox.awaitReady(READY);
    consumers.get(0).awaitReady(READY);
    consumers.get(1).start();
    for (ServiceProcess relay : relays) {
      relay.start();
    }
    consumers.get(1).awaitReady(READY);
    for (ServiceProcess relay : relays) {
      relay.awaitReady(READY);
    }
  }

  List<ServiceProcess> all() {
    List<ServiceProcess> all = new ArrayList<>(List.of(sandbox));
    all.addAll(consumers);
    all.addAll(relays);
    return all;
  }

  /** Restarts any instance that is not running and waits until every one is ready. */
  List<String> heal() throws IOException, InterruptedException {
    List<String> restarted = new ArrayList<>();
    for (ServiceProcess s : all()) {
      if (!s.alive()) {
        s.start();
        restarted.add(s.name());
      }
    }
    for (ServiceProcess s : all()) {
      s.awaitReady(READY);
    }
    return restarted;
  }

  String relayApiUrl(int index) {
    return relayApiUrls.get(index);
  }

  String relayManagementUrl(int index) {
    return relayManagementUrls.get(index);
  }

  @Override
  public void close() throws InterruptedException {
    for (ServiceProcess s : all()) {
      s.terminate(Duration.ofSeconds(10));
    }
  }

  /** The hash the services expect for an embedded user: SHA-512 of "name:realm:password". */
  static String hash(String user, String password) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-512")
              .digest((user + ":onceonly:" + password).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] random(int bytes) {
    byte[] b = new byte[bytes];
    new java.security.SecureRandom().nextBytes(b);
    return b;
  }
}
