package dev.onceonly.internal.health;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BrokerStartupCheckTest {

  @Test
  void unreachableBrokerFailsTheStartNamingItsAddress() throws Exception {
    int freePort;
    try (ServerSocket probe = new ServerSocket(0)) {
      freePort = probe.getLocalPort();
    }
    assertThatThrownBy(
            () -> BrokerStartupCheck.requireReachable("127.0.0.1", freePort, Duration.ZERO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("RabbitMQ is not reachable at 127.0.0.1:" + freePort)
        .hasMessageContaining("RABBITMQ_HOST");
  }

  @Test
  void reachableBrokerPasses() throws Exception {
    try (ServerSocket listening = new ServerSocket(0)) {
      assertThatCode(
              () ->
                  BrokerStartupCheck.requireReachable(
                      "127.0.0.1", listening.getLocalPort(), Duration.ofSeconds(5)))
          .doesNotThrowAnyException();
    }
  }
}
