package dev.onceonly.kafkabroker;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What {@link KafkaBrokerMain} is asked to run, from its command line, and the broker configuration
 * that follows from it.
 *
 * <pre>
 * --port=P                   the client listener, PLAINTEXT on 127.0.0.1 (required, 1024..32767)
 * --data-dir=DIR             the broker's home: storage in DIR/kraft (required)
 * --controller-port=C        the KRaft controller listener (default P + 1)
 * --auto-create-topics=B     create a topic on first use (default true)
 * --partitions=N             partitions of a topic created on first use (default 1)
 * --watch-pid=PID            stop when that process ends (the launching test JVM)
 * --set=KEY=VALUE            any other broker property; repeatable, wins over the above
 * </pre>
 *
 * @param port client listener port
 * @param controllerPort controller listener port
 * @param dataDir the broker's home
 * @param autoCreateTopics whether a topic is created on first use
 * @param partitions partitions of a topic created on first use
 * @param watchPid the process whose end stops the broker, or 0 for none
 * @param overrides broker properties given with {@code --set}
 */
public record BrokerOptions(
    int port,
    int controllerPort,
    Path dataDir,
    boolean autoCreateTopics,
    int partitions,
    long watchPid,
    Map<String, String> overrides) {

  /** The host every listener binds: this machine only. */
  public static final String HOST = "127.0.0.1";

  static final int NODE_ID = 1;
  static final String CONTROLLER_LISTENER = "CONTROLLER";
  private static final int MIN_PORT = 1024;
  private static final int MAX_PORT = 32767;
  private static final int MIB = 1024 * 1024;

  /** Parses the command line; a wrong or missing option is an error that names it. */
  public static BrokerOptions parse(List<String> args) {
    Integer port = null;
    Integer controllerPort = null;
    Path dataDir = null;
    boolean autoCreateTopics = true;
    int partitions = 1;
    long watchPid = 0;
    Map<String, String> overrides = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      if (!arg.startsWith("--") || eq < 0) {
        throw new IllegalArgumentException("expected --name=value, got '" + arg + "'");
      }
      String name = arg.substring(2, eq);
      String value = arg.substring(eq + 1);
      switch (name) {
        case "port" -> port = port(name, value);
        case "controller-port" -> controllerPort = port(name, value);
        case "data-dir" -> dataDir = dataDir(value);
        case "auto-create-topics" -> autoCreateTopics = bool(name, value);
        case "partitions" -> partitions = positive(name, value);
        case "watch-pid" -> watchPid = positive(name, value);
        case "set" -> override(value, overrides);
        default -> throw new IllegalArgumentException("unknown option --" + name);
      }
    }
    if (port == null) {
      throw new IllegalArgumentException("--port is required");
    }
    if (dataDir == null) {
      throw new IllegalArgumentException("--data-dir is required");
    }
    if (controllerPort == null) {
      controllerPort = port(port + 1);
    }
    if (controllerPort.equals(port)) {
      throw new IllegalArgumentException(
          "--controller-port must differ from --port, both were " + port);
    }
    return new BrokerOptions(
        port,
        controllerPort,
        dataDir,
        autoCreateTopics,
        partitions,
        watchPid,
        Map.copyOf(overrides));
  }

  /** Where the metadata log and the topics' data live. */
  public Path storage() {
    return dataDir.resolve("kraft");
  }

  /** The address clients bootstrap from. */
  public String bootstrapServers() {
    return HOST + ":" + port;
  }

  /**
   * One broker and its controller in one process, for tests and local runs: replication factor 1
   * for the internal topics, small internal topics and segments, no delay before a consumer group's
   * first rebalance.
   */
  public Properties brokerProperties() {
    Properties p = new Properties();
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", Integer.toString(NODE_ID));
    p.setProperty("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
    p.setProperty(
        "listeners",
        "PLAINTEXT://"
            + HOST
            + ":"
            + port
            + ","
            + CONTROLLER_LISTENER
            + "://"
            + HOST
            + ":"
            + controllerPort);
    p.setProperty("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
    p.setProperty("controller.listener.names", CONTROLLER_LISTENER);
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty(
        "listener.security.protocol.map",
        "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
    p.setProperty("log.dirs", storage().toString());
    p.setProperty("auto.create.topics.enable", Boolean.toString(autoCreateTopics));
    p.setProperty("num.partitions", Integer.toString(partitions));
    p.setProperty("default.replication.factor", "1");
    p.setProperty("min.insync.replicas", "1");
    p.setProperty("offsets.topic.replication.factor", "1");
    p.setProperty("offsets.topic.num.partitions", "5");
    p.setProperty("transaction.state.log.replication.factor", "1");
    p.setProperty("transaction.state.log.min.isr", "1");
    p.setProperty("transaction.state.log.num.partitions", "5");
    p.setProperty("share.coordinator.state.topic.replication.factor", "1");
    p.setProperty("share.coordinator.state.topic.min.isr", "1");
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    p.setProperty("log.segment.bytes", Integer.toString(MIB));
    p.setProperty("log.retention.hours", "1");
    p.setProperty("log.cleaner.dedupe.buffer.size", Integer.toString(4 * MIB));
    overrides.forEach(p::setProperty);
    return p;
  }

  private static int port(String name, String value) {
    int port = integer(name, value);
    if (port < MIN_PORT || port > MAX_PORT) {
      throw new IllegalArgumentException(
          "--" + name + " must be in " + MIN_PORT + ".." + MAX_PORT + ", was " + value);
    }
    return port;
  }

  private static int port(int derived) {
    return port("controller-port (default --port + 1)", Integer.toString(derived));
  }

  private static Path dataDir(String value) {
    if (value.isBlank()) {
      throw new IllegalArgumentException("--data-dir must name a directory");
    }
    return Path.of(value).toAbsolutePath().normalize();
  }

  private static boolean bool(String name, String value) {
    return switch (value) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException("--" + name + " must be true or false, was " + value);
    };
  }

  private static int positive(String name, String value) {
    int number = integer(name, value);
    if (number < 1) {
      throw new IllegalArgumentException("--" + name + " must be positive, was " + value);
    }
    return number;
  }

  private static int integer(String name, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a number, was '" + value + "'");
    }
  }

  private static void override(String value, Map<String, String> overrides) {
    int eq = value.indexOf('=');
    if (eq < 1) {
      throw new IllegalArgumentException("--set expects KEY=VALUE, got '" + value + "'");
    }
    overrides.put(value.substring(0, eq), value.substring(eq + 1));
  }
}
