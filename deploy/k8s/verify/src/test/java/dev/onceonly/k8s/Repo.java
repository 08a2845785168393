package dev.onceonly.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The checkout under test: its root, the project version, and its files. */
final class Repo {

  private Repo() {}

  /** The repository root (system property {@code onceonly.root}, else found from here up). */
  static Path root() {
    String configured = System.getProperty("onceonly.root");
    if (configured != null && Files.isDirectory(Path.of(configured, "deploy", "k8s"))) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("deploy").resolve("k8s"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no deploy/k8s above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** The project version from the build (pom.xml), e.g. {@code 0.1.0-SNAPSHOT}. */
  static String version() {
    String version = System.getProperty("onceonly.version");
    if (version == null || version.isBlank()) {
      throw new IllegalStateException("run through Maven: system property onceonly.version unset");
    }
    return version;
  }

  static Path path(String relative) {
    return root().resolve(relative);
  }

  static String read(String relative) {
    try {
      return Files.readString(path(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
