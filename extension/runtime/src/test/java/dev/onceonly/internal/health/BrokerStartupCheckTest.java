package dev.onceonly.internal.health;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.Address;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrokerStartupCheckTest {

  @Test
  void unreachableBrokerFailsTheStartNamingItsAddress() throws Exception {
    int freePort;
    try (ServerSocket probe = new ServerSocket(0)) {
      freePort = probe.getLocalPort();
    }
    assertThatThrownBy(
            () ->
                BrokerStartupCheck.requireReachable(
                    List.of(new Address("127.0.0.1", freePort)), Duration.ZERO))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("RabbitMQ is not reachable at 127.0.0.1:" + freePort)
        .hasMessageContaining("RABBITMQ_ADDRESSES");
  }

  @Test
  void oneReachableNodeOfSeveralPasses() throws Exception {
    int freePort;
    try (ServerSocket probe = new ServerSocket(0)) {
      freePort = probe.getLocalPort();
    }
    try (ServerSocket listening = new ServerSocket(0)) {
      assertThatCode(
              () ->
                  BrokerStartupCheck.requireReachable(
                      List.of(
                          new Address("127.0.0.1", freePort),
                          new Address("127.0.0.1", listening.getLocalPort())),
                      Duration.ofSeconds(5)))
          .doesNotThrowAnyException();
    }
  }
}
