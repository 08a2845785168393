package dev.onceonly.relay.destination.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import dev.onceonly.relay.destination.DeliveryResult;
import dev.onceonly.relay.destination.DeliveryResult.Classification;
import dev.onceonly.relay.destination.Destinations;
import dev.onceonly.relay.lease.LeasedRow;
import dev.onceonly.relay.support.Configs;
import dev.onceonly.testsupport.RabbitMqResource;
import dev.onceonly.testsupport.tls.TestCa;
import dev.onceonly.testsupport.tls.TlsProxy;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A RabbitMQ destination with {@code tls=true}, against a TLS-only listener in front of the test
 * broker whose certificate a CA made here signed: rows are published over AMQPS when the relay
 * trusts that CA; a broker of another CA, a certificate for another host and a port without TLS
 * stop the start with the destination's keys and the reason.
 */
class RabbitMqTlsTest {

  private static final TestCa CA = TestCa.create("OnceOnly test relay broker CA");
  private static final TestCa OTHER_CA = TestCa.create("Someone else's CA");
  private static final RabbitMqResource BROKER = new RabbitMqResource();
  private static final String CA_KEY = "relay.destinations.\"events\".rabbitmq.ca-file";
  private static Map<String, String> broker;
  private static TlsProxy good;
  private static TlsProxy wrongHost;
  private static String caFile;
  private static String otherCaFile;

  @TempDir static Path dir;

  @BeforeAll
  static void start() {
    broker = BROKER.start();
    String host = broker.get("rabbitmq-host");
    int port = Integer.parseInt(broker.get("rabbitmq-port"));
    good = TlsProxy.start(CA.issue("127.0.0.1", "localhost"), TlsProxy.Protocol.DIRECT, host, port);
    wrongHost =
        TlsProxy.start(CA.issue("broker.example.com"), TlsProxy.Protocol.DIRECT, host, port);
    caFile = CA.writePem(dir, "ca.crt").toString();
    otherCaFile = OTHER_CA.writePem(dir, "other-ca.crt").toString();
  }

  @AfterAll
  static void stop() {
    good.close();
    wrongHost.close();
    BROKER.stop();
  }

  @Test
  void rowsArePublishedOverAmqpsTrustingTheCaFile() throws Exception {
    String queue = "onceonly.relay.test.tls-" + System.nanoTime();
    try (Connection plain = plainFactory().newConnection("relay-tls-test");
        Channel channel = plain.createChannel()) {
      channel.queueDeclare(queue, false, false, true, null);
      int before = good.handshakes();
      try (RabbitMqDestination destination =
          new RabbitMqDestination("events", settings(good.port(), caFile, queue))) {
        assertThat(destination.target()).contains("on amqps://");
        DeliveryResult result = destination.send(row("{\"n\":1}"), null).get(30, TimeUnit.SECONDS);
        assertThat(result.classification()).isEqualTo(Classification.SUCCESS);
      }
      assertThat(channel.basicGet(queue, true).getProps().getMessageId()).isEqualTo("key-1");
      // The start check's handshake and the publishing connection's.
      assertThat(good.handshakes()).isEqualTo(before + 2);
    }
  }

  @Test
  void aBrokerOfAnotherCaStopsTheStartSayingItIsNotTrusted() {
    assertThatThrownBy(() -> settings(good.port(), otherCaFile, "q"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("RabbitMQ at 127.0.0.1:" + good.port())
        .hasMessageContaining("not trusted")
        .hasMessageContaining("the CA certificates in " + otherCaFile)
        .hasMessageContaining(CA_KEY);
  }

  @Test
  void aCertificateForAnotherHostStopsTheStart() {
    assertThatThrownBy(() -> settings(wrongHost.port(), caFile, "q"))
        .hasMessageContaining("not trusted")
        .hasMessageContaining("does not name host 127.0.0.1")
        .hasMessageContaining("broker.example.com");
  }

  @Test
  void aPortWithoutTlsStopsTheStart() {
    assertThatThrownBy(() -> settings(Integer.parseInt(broker.get("rabbitmq-port")), caFile, "q"))
        .hasMessageContaining("does not answer TLS")
        .hasMessageContaining("relay.destinations.\"events\".rabbitmq.port");
  }

  @Test
  void aCaFileWithoutTlsIsAMistake() {
    Map<String, String> values = base(good.port(), caFile, "q");
    values.put("rabbitmq.tls", "false");
    assertThatThrownBy(() -> settings(values))
        .hasMessageContaining(CA_KEY + " is set but")
        .hasMessageContaining("rabbitmq.tls is false");
  }

  private static Map<String, String> base(int port, String ca, String routingKey) {
    Map<String, String> values = new HashMap<>();
    values.put("type", "rabbitmq");
    values.put("rabbitmq.host", "127.0.0.1");
    values.put("rabbitmq.port", Integer.toString(port));
    values.put("rabbitmq.username", broker.get("rabbitmq-username"));
    values.put("rabbitmq.password", broker.get("rabbitmq-password"));
    values.put("rabbitmq.virtual-host", broker.get("rabbitmq-virtual-host"));
    values.put("rabbitmq.routing-key", routingKey);
    values.put("rabbitmq.tls", "true");
    values.put("rabbitmq.ca-file", ca);
    values.put("rabbitmq.connect-timeout", "5s");
    values.put("rabbitmq.confirm-timeout", "5s");
    return values;
  }

  private static RabbitMqSettings settings(int port, String ca, String routingKey) {
    return settings(base(port, ca, routingKey));
  }

  private static RabbitMqSettings settings(Map<String, String> values) {
    Map<String, String> properties = new HashMap<>();
    values.forEach((k, v) -> properties.put(Destinations.key("events", k), v));
    return RabbitMqSettings.of(
        Configs.fromProperties(properties).destinations().get("events").rabbitmq().orElseThrow(),
        k -> Destinations.key("events", "rabbitmq." + k));
  }

  private static ConnectionFactory plainFactory() {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(broker.get("rabbitmq-host"));
    factory.setPort(Integer.parseInt(broker.get("rabbitmq-port")));
    factory.setUsername(broker.get("rabbitmq-username"));
    factory.setPassword(broker.get("rabbitmq-password"));
    factory.setVirtualHost(broker.get("rabbitmq-virtual-host"));
    return factory;
  }

  private static LeasedRow row(String payload) {
    return new LeasedRow(1, "events", payload, "key-1", null, 1, 1, Instant.now(), null, null);
  }
}
