package dev.onceonly.it.shipping;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.onceonly.testsupport.PostgresResource;
import dev.onceonly.testsupport.RabbitMqResource;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged shipping service, run as a process, dies right after the transaction that shipped an
 * order committed and before the platform acked the message (the JVM halts, as kill -9 would end
 * it). The broker delivers the message again to the restarted service, and the claim makes it a
 * duplicate: one shipment, one label, the redelivery counted as a duplicate.
 */
class CrashBeforeAckIT {

  private static final PostgresResource POSTGRES = new PostgresResource();
  private static final RabbitMqResource RABBIT = new RabbitMqResource();
  private static Map<String, String> db;
  private static Map<String, String> rabbit;
  private final List<Process> started = new ArrayList<>();

  @BeforeAll
  static void services() {
    POSTGRES.init(Map.of("database", "onceonly_shipping_crash_test", "fresh", "true"));
    db = POSTGRES.start();
    rabbit = RABBIT.start();
  }

  @AfterAll
  static void stopServices() {
    POSTGRES.stop();
    RABBIT.stop();
  }

  @Test
  void aCrashBetweenCommitAndAckMakesTheRedeliveryADuplicate() throws Exception {
    String order = "crash-" + UUID.randomUUID().toString().substring(0, 8);
    int management = freePort();
    Process first = start(Map.of("SHIPPING_CRASH_AFTER_COMMIT_OF", order), management, "first");
    awaitReady(management);
    try (Shop shop = shop()) {
      shop.publish("order-placed:" + order, Shop.json(order, "c-crash", 500, Instant.now()));
    }

    assertThat(first.waitFor(60, TimeUnit.SECONDS)).as("the service halts after commit").isTrue();
    assertThat(first.exitValue()).isEqualTo(137);
    assertThat(count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
        .as("the shipment committed")
        .isEqualTo(1);
    try (Shop shop = shop()) {
      await().atMost(Duration.ofSeconds(30)).until(() -> shop.depth(Shop.QUEUE) == 1);
    }

    int again = freePort();
    start(Map.of(), again, "second");
    await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> readyQuietly(again) && duplicates(again) >= 1);

    assertThat(count("SELECT count(*) FROM shipping.shipments WHERE order_id = ?", order))
        .isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM outbox.outbox WHERE kind = 'create-label'"
                    + " AND payload->>'orderId' = ?",
                order))
        .isEqualTo(1);
    try (Shop shop = shop()) {
      assertThat(shop.depth(Shop.QUEUE)).as("the redelivery was acked").isZero();
    }
    stopAll();
  }

  private Process start(Map<String, String> extra, int management, String name) throws IOException {
    Path log = Files.createDirectories(Path.of("target", "crash-it")).resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                System.getProperty("shipping.jar"))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    Map<String, String> env = new HashMap<>();
    env.put("DB_URL", db.get("quarkus.datasource.jdbc.url"));
    env.put("DB_USER", db.get("quarkus.datasource.username"));
    env.put("DB_PASSWORD", db.get("quarkus.datasource.password"));
    env.put("RABBITMQ_HOST", rabbit.get("rabbitmq-host"));
    env.put("RABBITMQ_PORT", rabbit.get("rabbitmq-port"));
    env.put("RABBITMQ_VHOST", rabbit.get("rabbitmq-virtual-host"));
    env.put("HTTP_PORT", Integer.toString(freePort()));
    env.put("MANAGEMENT_PORT", Integer.toString(management));
    env.putAll(extra);
    builder.environment().putAll(env);
    Process process = builder.start();
    started.add(process);
    return process;
  }

  private void stopAll() throws InterruptedException {
    for (Process p : started) {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
  }

  private static void awaitReady(int management) {
    await().atMost(Duration.ofSeconds(90)).until(() -> readyQuietly(management));
  }

  private static boolean readyQuietly(int management) {
    try {
      return get(management, "/q/health/ready").startsWith("200");
    } catch (IOException e) {
      return false;
    }
  }

  private static double duplicates(int management) throws IOException {
    for (String line : get(management, "/q/metrics").split("\n")) {
      if (line.startsWith("onceonly_consumer_messages_total{")
          && line.contains("consumer=\"shipping\"")
          && line.contains("outcome=\"duplicate\"")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  /** The status code, a newline, and the body. */
  private static String get(int port, String path) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
    c.setConnectTimeout(2_000);
    c.setReadTimeout(5_000);
    int status = c.getResponseCode();
    byte[] body = (status < 400 ? c.getInputStream() : c.getErrorStream()).readAllBytes();
    return status + "\n" + new String(body, StandardCharsets.UTF_8);
  }

  private static Shop shop() {
    return Shop.connect(
        rabbit.get("rabbitmq-host"),
        Integer.parseInt(rabbit.get("rabbitmq-port")),
        rabbit.get("rabbitmq-virtual-host"));
  }

  private static long count(String sql, Object... params) throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                db.get("quarkus.datasource.jdbc.url"),
                db.get("quarkus.datasource.username"),
                db.get("quarkus.datasource.password"));
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** A free port below the ephemeral range, so that no outgoing connection takes it meanwhile. */
  private static int freePort() throws IOException {
    for (int port = 20_000 + (int) (Math.random() * 10_000); ; port++) {
      try (ServerSocket socket = new ServerSocket(port)) {
        return port;
      } catch (IOException taken) {
        // try the next one
      }
    }
  }
}
