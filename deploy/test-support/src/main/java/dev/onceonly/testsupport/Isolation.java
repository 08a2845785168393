package dev.onceonly.testsupport;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Optional isolation of one checkout's tests from another's on the same machine: with {@code
 * ONCEONLY_TEST_SUFFIX=<name>} in the environment (letters, digits, underscores), test databases
 * get {@code _<name>} appended and the broker tests use a vhost {@code onceonly-test-<name>} of
 * their own. Without it (CI, a single checkout) the databases keep their names and the vhost is
 * {@code onceonly-test}: no variable is needed.
 */
public final class Isolation {

  public static final String VARIABLE = "ONCEONLY_TEST_SUFFIX";

  /** The vhosts this JVM already emptied. */
  private static final Set<String> FRESH = new HashSet<>();

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
   * The vhost for broker tests on this machine's RabbitMQ: {@code onceonly-test}, or {@code
   * onceonly-test-<suffix>} with a suffix. The first call in a JVM deletes it with everything in it
   * and creates it empty (full rights for guest), and the JVM deletes it when it exits: a run never
   * meets queues an earlier run left, whatever their type (RabbitMQ fixes a queue's type when it is
   * first declared, and OnceOnly refuses to start on a queue of another type than configured).
   * Later calls in the same JVM reuse it, as a service started by an earlier test class may still
   * be running on it.
   */
  static synchronized String localVhost() {
    String suffix = suffix();
    String vhost = suffix == null ? "onceonly-test" : "onceonly-test-" + suffix;
    if (!FRESH.contains(vhost)) {
      run(List.of("rabbitmqctl", "-q", "delete_vhost", vhost), Absence.ALLOWED);
      run(List.of("rabbitmqctl", "-q", "add_vhost", vhost), Absence.REQUIRED);
      run(
          List.of("rabbitmqctl", "-q", "set_permissions", "-p", vhost, "guest", ".*", ".*", ".*"),
          Absence.REQUIRED);
      FRESH.add(vhost);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> run(List.of("rabbitmqctl", "-q", "delete_vhost", vhost), Absence.ALLOWED),
                  "delete-test-vhost"));
    }
    return vhost;
  }

  /** Whether a command may fail because what it deletes is not there. */
  private enum Absence {
    ALLOWED,
    REQUIRED
  }

  private static void run(List<String> command, Absence absence) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish in 60 s");
      }
      if (process.exitValue() != 0
          && !(absence == Absence.ALLOWED
              && (output.contains("does not exist") || output.contains("no_such_vhost")))) {
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
