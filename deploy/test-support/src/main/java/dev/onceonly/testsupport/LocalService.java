package dev.onceonly.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** A service expected on this machine when no Docker engine can start one. */
final class LocalService {

  private LocalService() {}

  /** Fails with a message that names the service and how to start it if nothing listens. */
  static void requireListening(String name, String host, int port, String howToStart) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 2_000);
    } catch (IOException e) {
      throw new IllegalStateException(
          name
              + " is not reachable at "
              + host
              + ":"
              + port
              + " and no Docker engine is available for Testcontainers. Start it with: "
              + howToStart,
          e);
    }
  }
}
