package dev.onceonly.internal.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Connection;
import dev.onceonly.testsupport.RabbitMqResource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The platform's own connections with {@code rabbitmq-addresses}: they go to a node of the list
 * that answers, past one that is down, as after the loss of a cluster node.
 */
class BrokerConnectionsTest {

  private static final RabbitMqResource RABBIT = new RabbitMqResource();
  private static Map<String, String> broker;

  @BeforeAll
  static void start() {
    broker = RABBIT.start();
  }

  @AfterAll
  static void stop() {
    RABBIT.stop();
  }

  @Test
  void aConnectionGoesToTheNodeThatAnswers() throws Exception {
    String live = broker.get("rabbitmq-host") + ":" + broker.get("rabbitmq-port");
    Config config = config(Map.of(BrokerAddresses.SETTING, "127.0.0.1:1," + live));

    try (Connection connection =
        BrokerConnections.factory(config).newConnection("broker-connections-test")) {
      assertThat(connection.isOpen()).isTrue();
      assertThat(connection.getPort()).isEqualTo(Integer.parseInt(broker.get("rabbitmq-port")));
    }
  }

  @Test
  void withoutAListHostAndPortNameTheBroker() throws Exception {
    Config config =
        config(
            Map.of(
                "rabbitmq-host", broker.get("rabbitmq-host"),
                "rabbitmq-port", broker.get("rabbitmq-port")));

    try (Connection connection = BrokerConnections.factory(config).newConnection()) {
      assertThat(connection.isOpen()).isTrue();
    }
  }

  @Test
  void aBadListIsRefusedNamingTheSetting() {
    assertThatThrownBy(
            () -> BrokerConnections.factory(config(Map.of(BrokerAddresses.SETTING, "a:x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("rabbitmq-addresses must list broker nodes as host:port");
  }

  private static Config config(Map<String, String> settings) {
    Map<String, String> all = new HashMap<>(settings);
    all.put("rabbitmq-username", broker.get("rabbitmq-username"));
    all.put("rabbitmq-password", broker.get("rabbitmq-password"));
    all.put("rabbitmq-virtual-host", broker.get("rabbitmq-virtual-host"));
    return new SmallRyeConfigBuilder()
        .withSources(new PropertiesConfigSource(all, "test", 250))
        .build();
  }
}
