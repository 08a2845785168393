package dev.onceonly.internal.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Connection;
import dev.onceonly.internal.health.BrokerStartupCheck;
import dev.onceonly.testsupport.RabbitMqResource;
import dev.onceonly.testsupport.tls.TestCa;
import dev.onceonly.testsupport.tls.TlsProxy;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.Vertx;
import io.vertx.rabbitmq.RabbitMQClient;
import io.vertx.rabbitmq.RabbitMQOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AMQPS with {@code quarkus.onceonly.broker.tls.*}, against a TLS-only listener whose certificate a
 * CA made here signed, in front of the test broker: the platform's own connections and the
 * connector's client (as {@link BrokerTlsCustomizer} sets it up) connect when they trust that CA,
 * and refuse a certificate of another CA or for another host; the start check says which, at once.
 */
class BrokerTlsTest {

  private static final TestCa CA = TestCa.create("OnceOnly test broker CA");
  private static final TestCa OTHER_CA = TestCa.create("Someone else's CA");
  private static final RabbitMqResource BROKER = new RabbitMqResource();
  private static Map<String, String> plain;
  private static TlsProxy good;
  private static TlsProxy wrongHost;
  private static Vertx vertx;

  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    plain = BROKER.start();
    String host = plain.get("rabbitmq-host");
    int port = Integer.parseInt(plain.get("rabbitmq-port"));
    good = TlsProxy.start(CA.issue("127.0.0.1", "localhost"), TlsProxy.Protocol.DIRECT, host, port);
    wrongHost =
        TlsProxy.start(CA.issue("broker.example.com"), TlsProxy.Protocol.DIRECT, host, port);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() {
    good.close();
    wrongHost.close();
    vertx.close();
    BROKER.stop();
  }

  @Test
  void ownConnectionsSpeakAmqpsTrustingTheCaFile() throws Exception {
    int before = good.handshakes();
    try (Connection connection =
        BrokerConnections.factory(config(good.port(), CA)).newConnection("tls-test")) {
      assertThat(connection.isOpen()).isTrue();
      connection.createChannel().queueDeclarePassive("amq.rabbitmq.reply-to");
    }
    assertThat(good.handshakes()).isEqualTo(before + 1);
  }

  @Test
  void connectorChannelsSpeakAmqpsTrustingTheCaFile() {
    int before = good.handshakes();
    RabbitMQClient client = RabbitMQClient.create(vertx, connectorOptions(good.port(), CA));
    try {
      client.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertThat(client.isConnected()).isTrue();
    } catch (Exception e) {
      throw new AssertionError("the connector's client did not connect over TLS", e);
    } finally {
      client.stop();
    }
    assertThat(good.handshakes()).isEqualTo(before + 1);
  }

  @Test
  void connectorChannelsRefuseACertificateForAnotherHost() {
    RabbitMQClient client = RabbitMQClient.create(vertx, connectorOptions(wrongHost.port(), CA));
    assertThatThrownBy(
            () ->
                client.start().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS))
        .hasStackTraceContaining("SSLHandshakeException")
        .hasStackTraceContaining("127.0.0.1");
    assertThat(wrongHost.handshakes()).isZero();
  }

  @Test
  void ownConnectionsRefuseABrokerOfAnotherCa() {
    assertThatThrownBy(
            () ->
                BrokerConnections.factory(config(good.port(), OTHER_CA)).newConnection("tls-test"))
        .hasStackTraceContaining("PKIX path");
  }

  @Test
  void startCheckSaysTheBrokerIsNotTrustedAtOnce() {
    long started = System.nanoTime();
    assertThatThrownBy(() -> check(config(good.port(), OTHER_CA)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("RabbitMQ at 127.0.0.1:" + good.port())
        .hasMessageContaining("not trusted")
        .hasMessageContaining("the CA certificates in " + dir.resolve(OTHER_CA_FILE))
        .hasMessageContaining("RABBITMQ_CA_FILE");
    assertThatThrownBy(() -> check(config(wrongHost.port(), CA)))
        .hasMessageContaining("not trusted")
        .hasMessageContaining("does not name host 127.0.0.1")
        .hasMessageContaining("broker.example.com");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void startCheckSaysThePortDoesNotSpeakTls() {
    assertThatThrownBy(() -> check(config(Integer.parseInt(plain.get("rabbitmq-port")), CA)))
        .hasMessageContaining("does not answer TLS")
        .hasMessageContaining("5671");
  }

  @Test
  void startCheckPassesATrustedBroker() {
    check(config(good.port(), CA));
  }

  private static final String OTHER_CA_FILE = "other-ca.crt";

  /** The start check, as the service runs it with these settings. */
  private static void check(SmallRyeConfig config) {
    BrokerStartupCheck.requireTrusted(
        BrokerAddresses.of(config),
        BrokerConnections.trust(config).orElseThrow(),
        Duration.ofSeconds(5));
  }

  private static SmallRyeConfig config(int port, TestCa ca) {
    String file = ca == CA ? "ca.crt" : OTHER_CA_FILE;
    Path pem = dir.resolve(file);
    if (!Files.exists(pem)) {
      ca.writePem(dir, file);
    }
    Map<String, String> values = new HashMap<>(plain);
    values.put("rabbitmq-host", "127.0.0.1");
    values.put("rabbitmq-port", Integer.toString(port));
    values.put("quarkus.onceonly.broker.tls.enabled", "true");
    values.put(BrokerConnections.CA_FILE_KEY, pem.toString());
    return new SmallRyeConfigBuilder()
        .withSources(new PropertiesConfigSource(values, "test", 500))
        .build();
  }

  /** The options the connector builds for a channel, then customised as in the service. */
  private static RabbitMQOptions connectorOptions(int port, TestCa ca) {
    SmallRyeConfig config = config(port, ca);
    RabbitMQOptions options =
        new RabbitMQOptions()
            .setHost("127.0.0.1")
            .setPort(port)
            .setUser(plain.get("rabbitmq-username"))
            .setPassword(plain.get("rabbitmq-password"))
            .setVirtualHost(plain.get("rabbitmq-virtual-host"))
            .setReconnectAttempts(0)
            .setConnectionTimeout(5_000);
    return new BrokerTlsCustomizer(config).customize("loyalty", config, options);
  }
}
