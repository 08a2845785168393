package dev.onceonly.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import dev.onceonly.k8s.Backing.Endpoint;
import dev.onceonly.k8s.Backing.Names;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the dev overlay's containers here as the kubelet and the image would: the container's
 * environment (ConfigMaps and the Secret resolved) plus the image's ENV, the image's entrypoint
 * (run-java.sh: {@code java $GC_CONTAINER_OPTIONS $JAVA_OPTS_APPEND -jar $JAVA_APP_JAR}) with the
 * memory limit the JVM would read from its cgroup ({@code -XX:MaxRAM}), and the jar the image is
 * built from. What must differ on one shared machine, and only that, is mapped: Service host names
 * to where their stand-ins listen, each container port to a free local port (as a port-forward
 * would), and on shared servers the database, role, vhost and user names get a run suffix.
 */
final class DevOverlay {

  private static final Pattern ENV_LINE = Pattern.compile("^ENV (\\w+)=\"(.*)\"$");

  final Rendered dev;
  final Names manifestNames;
  private final Path logs;
  private final Map<String, Endpoint> services = new HashMap<>();
  private Names names;

  DevOverlay(Rendered dev, Path logs) {
    this.dev = dev;
    this.logs = logs;
    this.manifestNames = manifestNames(dev);
  }

  /** The names the dev settings give (the consumer's view: database, broker, passwords). */
  static Names manifestNames(Rendered dev) {
    JsonNode consumer = ContainerEnv.onlyContainer(dev.one("Deployment", "consumer-service"));
    Map<String, ContainerEnv.Variable> env = ContainerEnv.of(dev, consumer);
    String url = env.get("DB_URL").value();
    String database = URI.create(url.substring("jdbc:".length())).getPath().substring(1);
    return new Names(
        database,
        env.get("DB_USER").value(),
        env.get("DB_PASSWORD").value(),
        env.get("RABBITMQ_VHOST").value(),
        env.get("RABBITMQ_USER").value(),
        env.get("RABBITMQ_PASSWORD").value());
  }

  /** The stand-ins for postgres and rabbitmq, and the names they use. */
  void backedBy(Backing backing) {
    this.names = backing.names();
    services.put("postgres", backing.endpoint("postgres"));
    services.put("rabbitmq", backing.endpoint("rabbitmq"));
  }

  /** A started pod now answers for a Service (the sandbox for provider-sandbox). */
  void serves(String service, PodProcess pod, String portName) {
    serves(service, new Endpoint("127.0.0.1", pod.port(portName)));
  }

  /** A process of the test answers for a Service (a Kafka broker for kafka). */
  void serves(String service, Endpoint endpoint) {
    services.put(service, endpoint);
  }

  Names names() {
    return names;
  }

  /** The environment the container gets, mapped for this machine, for {@code pod}. */
  Map<String, String> environment(JsonNode workload, String pod, Map<Integer, Integer> ports) {
    JsonNode container = ContainerEnv.onlyContainer(workload);
    Map<String, String> env = new LinkedHashMap<>(imageEnv(container));
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("HOME", logs.resolve(pod + "-home").toString());
    env.put("HOSTNAME", pod);
    ContainerEnv.of(dev, container)
        .forEach(
            (name, variable) -> {
              if (variable.from() == ContainerEnv.From.FIELD) {
                env.put(name, variable.key().equals("metadata.name") ? pod : null);
              } else {
                env.put(name, variable.value());
              }
            });
    Map<String, String> mapped = new LinkedHashMap<>();
    env.forEach(
        (name, value) -> {
          String local = map(name, value, env, ports);
          if (local != null) {
            mapped.put(name, local);
          }
        });
    return mapped;
  }

  /** Starts a Deployment's or Job's container as {@code pod}. */
  PodProcess start(JsonNode workload, String pod) {
    return start(workload, pod, environment(workload, pod, freePorts(workload)));
  }

  PodProcess start(JsonNode workload, String pod, Map<String, String> env) {
    JsonNode container = ContainerEnv.onlyContainer(workload);
    Map<Integer, Integer> ports = new HashMap<>();
    for (JsonNode port : container.path("ports")) {
      int containerPort = port.path("containerPort").asInt();
      String variable = portVariable(container, containerPort);
      ports.put(containerPort, Integer.parseInt(env.get(variable)));
    }
    return PodProcess.start(pod, container, command(container, env), env, ports, logs);
  }

  /** The local ports handed out: from {@value #FIRST_PORT}, {@value #PORTS} of them. */
  static final int FIRST_PORT = 20_000;

  static final int PORTS = 8_000;

  /** Ports handed out by this JVM, never handed out twice, even before a service listens. */
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  /** A free local port for each container port ({@link #freePort}). */
  static Map<Integer, Integer> freePorts(JsonNode workload) {
    Map<Integer, Integer> ports = new HashMap<>();
    for (JsonNode port : ContainerEnv.onlyContainer(workload).path("ports")) {
      ports.put(port.path("containerPort").asInt(), freePort());
    }
    return ports;
  }

  /**
   * A local port free now, below every system's ephemeral range (Linux 32768 up, others 49152 up;
   * the chaos suite's 28000 block is above it). A port the system hands out for {@code new
   * ServerSocket(0)} is an ephemeral one: between the test closing it and a service listening on
   * it, a connection of any process, the services' own to PostgreSQL and RabbitMQ included, could
   * take it as its local port, and the service then failed to start with "Address already in use"
   * (seen once in CI). Nothing connects from a port below the range, so only a listener could take
   * it, and the services of this test get ports handed out here, each once.
   */
  static int freePort() {
    int start = ThreadLocalRandom.current().nextInt(PORTS);
    for (int i = 0; i < PORTS; i++) {
      int port = FIRST_PORT + (start + i) % PORTS;
      if (HANDED_OUT.contains(port)) {
        continue;
      }
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(port));
      } catch (IOException taken) {
        continue;
      }
      if (HANDED_OUT.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException(
        "no free local port from " + FIRST_PORT + " to " + (FIRST_PORT + PORTS - 1));
  }

  /** The variable that tells the service to listen on a container port (e.g. HTTP_PORT=8080). */
  static String portVariable(JsonNode container, int containerPort) {
    for (JsonNode entry : container.path("env")) {
      if (entry.path("name").asText().endsWith("_PORT")
          && entry.path("value").asText().equals(Integer.toString(containerPort))) {
        return entry.path("name").asText();
      }
    }
    throw new AssertionError(
        container.path("name") + ": no *_PORT variable tells it to listen on " + containerPort);
  }

  private String map(
      String name, String value, Map<String, String> env, Map<Integer, Integer> ports) {
    if (value == null) {
      return null;
    }
    // The run's names on shared servers.
    if (name.equals("DB_USER") && value.equals(manifestNames.dbUser())) {
      return names.dbUser();
    }
    if (name.equals("RABBITMQ_USER") && value.equals(manifestNames.brokerUser())) {
      return names.brokerUser();
    }
    if (name.equals("RABBITMQ_VHOST") && value.equals(manifestNames.vhost())) {
      return names.vhost();
    }
    // A listening port: the local port standing for it.
    if (name.endsWith("_PORT") && value.matches("\\d+")) {
      Integer local = ports.get(Integer.parseInt(value));
      if (local != null) {
        return local.toString();
      }
      String host = env.get(name.substring(0, name.length() - "_PORT".length()) + "_HOST");
      if (host != null && services.containsKey(host)) {
        return Integer.toString(services.get(host).port());
      }
    }
    if (name.endsWith("_HOST") && services.containsKey(value)) {
      return services.get(value).host();
    }
    // URLs naming a Service (scheme://service:port/...), and host:port lists (Kafka's bootstrap).
    String mapped = value;
    for (Map.Entry<String, Endpoint> service : services.entrySet()) {
      Matcher m =
          Pattern.compile("(//|^|,)" + Pattern.quote(service.getKey()) + ":\\d+").matcher(mapped);
      mapped = m.replaceAll("$1" + service.getValue().host() + ":" + service.getValue().port());
    }
    if (name.equals("DB_URL")) {
      mapped =
          mapped.replaceFirst(
              "/" + Pattern.quote(manifestNames.database()) + "(\\?|$)",
              "/" + names.database() + "$1");
    }
    return mapped;
  }

  /** The image's ENV lines (its Dockerfile), which the container starts with. */
  private static Map<String, String> imageEnv(JsonNode container) {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line :
        Repo.read(module(container) + "/src/main/docker/Dockerfile.jvm").split("\n")) {
      Matcher m = ENV_LINE.matcher(line.strip());
      if (m.matches()) {
        env.put(m.group(1), m.group(2));
      }
    }
    return env;
  }

  /** run-java.sh's command line, with the jar the image copies to /deployments. */
  private static List<String> command(JsonNode container, Map<String, String> env) {
    String jar = env.get("JAVA_APP_JAR");
    if (!"/deployments/quarkus-run.jar".equals(jar)) {
      throw new AssertionError("unexpected JAVA_APP_JAR " + jar);
    }
    Path local = Repo.path(module(container) + "/target/quarkus-app/quarkus-run.jar");
    if (!Files.exists(local)) {
      throw new IllegalStateException(
          local
              + " is missing: build the services first (./mvnw -B verify builds them before this module)");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(split(env.getOrDefault("GC_CONTAINER_OPTIONS", "-XX:+UseParallelGC")));
    command.addAll(split(env.getOrDefault("JAVA_OPTS_APPEND", "")));
    String memory = container.path("resources").path("limits").path("memory").asText();
    Matcher mi = Pattern.compile("(\\d+)Mi").matcher(memory);
    if (mi.matches()) {
      command.add("-XX:MaxRAM=" + mi.group(1) + "m");
    }
    command.add("-jar");
    command.add(local.toString());
    container.path("args").forEach(arg -> command.add(arg.asText()));
    return command;
  }

  /** The module whose jar an image of ours is built from; its tag must be this build's version. */
  static String module(JsonNode container) {
    String image = container.path("image").asText();
    Matcher m = Pattern.compile(".*onceonly/([a-z-]+):(.+)").matcher(image);
    if (!m.matches() || !ServiceProperties.MODULES.containsKey(m.group(1))) {
      throw new AssertionError("not an image of ours: " + image);
    }
    if (!m.group(2).equals(Repo.version())) {
      throw new AssertionError(image + " is not this build's version " + Repo.version());
    }
    return ServiceProperties.MODULES.get(m.group(1));
  }

  private static List<String> split(String flags) {
    return flags.isBlank() ? List.of() : List.of(flags.strip().split("\\s+"));
  }
}
