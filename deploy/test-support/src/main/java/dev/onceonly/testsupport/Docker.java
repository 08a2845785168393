package dev.onceonly.testsupport;

import org.testcontainers.DockerClientFactory;

/** Whether a Docker engine answers here; asked once per test JVM. */
final class Docker {

  private static volatile Boolean available;

  private Docker() {}

  static boolean available() {
    if (available == null) {
      boolean answer;
      try {
        answer = DockerClientFactory.instance().isDockerAvailable();
      } catch (Throwable e) {
        answer = false;
      }
      available = answer;
    }
    return available;
  }
}
