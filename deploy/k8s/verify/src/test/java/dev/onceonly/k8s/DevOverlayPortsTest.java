package dev.onceonly.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The local ports the services of the dev overlay listen on: never one a connection can take. */
class DevOverlayPortsTest {

  @Test
  void portsComeFromBelowTheEphemeralRangeEachOnceAndFree() throws Exception {
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      ports.add(DevOverlay.freePort());
    }

    // Linux hands out local ports for connections from 32768 up, other systems from 49152
    assertThat(ports)
        .allSatisfy(
            port ->
                assertThat(port)
                    .isBetween(DevOverlay.FIRST_PORT, DevOverlay.FIRST_PORT + DevOverlay.PORTS - 1)
                    .isLessThan(32_768));
    assertThat(ports).doesNotHaveDuplicates();
    for (int port : ports) {
      try (ServerSocket listening = new ServerSocket()) {
        listening.bind(new InetSocketAddress(port));
        assertThat(listening.isBound()).isTrue();
      }
    }
  }
}
