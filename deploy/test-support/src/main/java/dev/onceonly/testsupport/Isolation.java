package dev.onceonly.testsupport;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Optional isolation of one checkout's tests from another's on the same machine: with {@code
 * ONCEONLY_TEST_SUFFIX=<name>} in the environment (letters, digits, underscores), test databases
 * get {@code _<name>} appended and the broker tests use a vhost {@code onceonly-test-<name>} of
 * their own. Without it (CI, a single checkout) nothing changes: no variable is needed.
 */
public final class Isolation {

  public static final String VARIABLE = "ONCEONLY_TEST_SUFFIX";

  private Isolation() {}

  /** The suffix, or null when none is set. */
  public static String suffix() {
    String value = System.getenv(VARIABLE);
    if (value == null || value.isBlank()) {
      return null;
    }
    if (!value.matches("[A-Za-z0-9_]+")) {
      throw new IllegalStateException(
          VARIABLE + " may hold letters, digits and underscores only, was '" + value + "'");
    }
    return value.toLowerCase();
  }

  /** {@code database} with the suffix appended, if any. */
  public static String database(String database) {
    String suffix = suffix();
    return suffix == null ? database : database + "_" + suffix;
  }

  /**
   * The vhost for broker tests on this machine's RabbitMQ: {@code /} without a suffix, otherwise a
   * vhost of its own, created (with full rights for guest) when missing.
   */
  static String localVhost() {
    String suffix = suffix();
    if (suffix == null) {
      return "/";
    }
    String vhost = "onceonly-test-" + suffix;
    run(List.of("rabbitmqctl", "-q", "add_vhost", vhost), true);
    run(
        List.of("rabbitmqctl", "-q", "set_permissions", "-p", vhost, "guest", ".*", ".*", ".*"),
        false);
    return vhost;
  }

  private static void run(List<String> command, boolean mayExist) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish in 60 s");
      }
      if (process.exitValue() != 0 && !(mayExist && output.contains("already exists"))) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
    }
  }
}
