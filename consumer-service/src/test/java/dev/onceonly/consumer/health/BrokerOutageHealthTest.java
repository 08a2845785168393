package dev.onceonly.consumer.health;

import static dev.onceonly.consumer.TestEvents.order;
import static dev.onceonly.consumer.TestEvents.unique;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import dev.onceonly.consumer.Broker;
import dev.onceonly.consumer.Db;
import dev.onceonly.model.OrderCompleted;
import dev.onceonly.testsupport.PostgresResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A broker outage under a running consumer (deploy/k8s/README.md "Probes"): the broker it is
 * connected to stops, for longer than the liveness probe's 30 s; the service stays live (a restart
 * would not bring the broker back) and is not ready; when the broker is back it reconnects, is
 * ready and consumes again. The broker is a RabbitMQ node of the test's own (never the machine's
 * shared one), on a free port below 32768, stopped and started with {@code rabbitmqctl
 * stop_app/start_app}.
 */
@QuarkusTest
@TestProfile(BrokerOutageHealthTest.OwnBroker.class)
class BrokerOutageHealthTest {

  /** A database of its own and a RabbitMQ node of its own. */
  public static class OwnBroker implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
      return List.of(
          new TestResourceEntry(
              PostgresResource.class, Map.of("database", "onceonly_consumer_outage_test")),
          new TestResourceEntry(RabbitNode.class));
    }

    @Override
    public boolean disableGlobalTestResources() {
      return true;
    }
  }

  @Inject Db db;

  @TestHTTPResource(value = "/", management = true)
  URL management;

  @Test
  void aBrokerOutageMakesTheConsumerUnreadyButNeverUnlive() throws Exception {
    await().atMost(Duration.ofSeconds(60)).until(() -> status("ready") == 200);

    RabbitNode.running.ctl("stop_app");
    await().atMost(Duration.ofSeconds(30)).until(() -> status("ready") == 503);
    // Longer than the liveness probe tolerates (3 failures, 10 s apart), and past a reconnect.
    await()
        .during(Duration.ofSeconds(35))
        .atMost(Duration.ofSeconds(40))
        .until(() -> status("live") == 200 && status("ready") == 503);

    RabbitNode.running.ctl("start_app");
    await().atMost(Duration.ofSeconds(60)).until(() -> status("ready") == 200);
    OrderCompleted after = order(unique("outage"), unique("outage-c"), 1_500);
    try (Broker broker = Broker.connect()) {
      broker.publish(after);
      broker.confirmAll();
    }
    await()
        .pollInSameThread()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                db.count(
                        "SELECT count(*) FROM loyalty.point_ledger WHERE order_id = ?",
                        after.orderId())
                    == 1);
  }

  private int status(String check) {
    return given().baseUri(management.toString()).get("health/" + check).statusCode();
  }

  /**
   * A detached RabbitMQ node (no plugins, default vhost, guest) with its data in a temporary
   * directory, its AMQP and distribution ports free ones below 32768.
   */
  public static class RabbitNode implements QuarkusTestResourceLifecycleManager {

    static volatile RabbitNode running;

    private Path dir;
    private Map<String, String> env;
    private String node;

    @Override
    public Map<String, String> start() {
      try {
        int port = freePortPair();
        node = "onceonly-outage-" + port + "@localhost";
        dir = Files.createTempDirectory("onceonly-outage-rabbit");
        Files.writeString(dir.resolve("enabled_plugins"), "[].\n");
        Files.writeString(
            dir.resolve("rabbitmq.conf"), "listeners.tcp.local = 127.0.0.1:" + port + "\n");
        env =
            Map.of(
                "RABBITMQ_NODENAME", node,
                "RABBITMQ_NODE_PORT", Integer.toString(port),
                "RABBITMQ_DIST_PORT", Integer.toString(port + 1),
                "RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString(),
                "RABBITMQ_LOG_BASE", dir.resolve("log").toString(),
                "RABBITMQ_PID_FILE", dir.resolve("node.pid").toString(),
                "RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString(),
                "RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq.conf").toString());
        if ("root".equals(System.getProperty("user.name"))) {
          // rabbitmq-server runs the node as the rabbitmq user.
          run(List.of("chown", "-R", "rabbitmq:rabbitmq", dir.toString()));
        }
        run(List.of("/usr/sbin/rabbitmq-server", "-detached"));
        await()
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> attempt("await_startup", "--timeout", "10") == 0);
        running = this;
        return Map.of(
            "rabbitmq-host", "127.0.0.1",
            "rabbitmq-port", Integer.toString(port),
            "rabbitmq-username", "guest",
            "rabbitmq-password", "guest",
            "rabbitmq-virtual-host", "/");
      } catch (IOException e) {
        throw new IllegalStateException(
            "cannot start a RabbitMQ node of the test's own (needs /usr/sbin/rabbitmq-server)", e);
      }
    }

    void ctl(String... args) throws IOException {
      int code = attempt(args);
      if (code != 0) {
        throw new IllegalStateException("rabbitmqctl " + String.join(" ", args) + " -> " + code);
      }
    }

    @Override
    public void stop() {
      try {
        attempt("stop");
        run(List.of("rm", "-rf", dir.toString()));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    private int attempt(String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of("/usr/sbin/rabbitmqctl", "-n", node));
      command.addAll(List.of(args));
      return run(command);
    }

    private int run(List<String> command) throws IOException {
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      if (env != null) {
        builder.environment().putAll(env);
      }
      Process process = builder.start();
      try {
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IOException(String.join(" ", command) + " did not finish");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      return process.exitValue();
    }

    /** A port and the next one, both free, below the ephemeral range (32768 and up). */
    private static int freePortPair() throws IOException {
      for (int i = 0; i < 100; i++) {
        int port = ThreadLocalRandom.current().nextInt(20_000, 32_000);
        if (free(port) && free(port + 1)) {
          return port;
        }
      }
      throw new IOException("no two free ports in 20000-32000");
    }

    private static boolean free(int port) {
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(port));
        return true;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
