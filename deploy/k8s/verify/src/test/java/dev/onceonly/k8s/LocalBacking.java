package dev.onceonly.k8s;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The machine's PostgreSQL (127.0.0.1:5432, user postgres, trust) and RabbitMQ (127.0.0.1:5672,
 * rabbitmqctl): a role and database, a user and vhost, named as the dev overlay names them plus a
 * run suffix (other checkouts and people use these servers), dropped again at the end.
 */
final class LocalBacking implements Backing {

  private static final String ADMIN_URL = "jdbc:postgresql://127.0.0.1:5432/postgres";

  private final Names names;

  private LocalBacking(Names names) {
    this.names = names;
  }

  static LocalBacking start(Names manifest) {
    requireListening(
        "PostgreSQL",
        5432,
        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start");
    requireListening("RabbitMQ", 5672, "rabbitmq-server -detached");
    String suffix = suffix();
    Names names =
        new Names(
            manifest.database() + "_" + suffix,
            manifest.dbUser() + "_" + suffix,
            manifest.dbPassword(),
            manifest.vhost() + "-" + suffix.replace('_', '-'),
            manifest.brokerUser() + "-" + suffix.replace('_', '-'),
            manifest.brokerPassword());
    LocalBacking backing = new LocalBacking(names);
    backing.drop();
    sql(
        "CREATE ROLE \""
            + names.dbUser()
            + "\" LOGIN PASSWORD '"
            + names.dbPassword().replace("'", "''")
            + "'",
        "CREATE DATABASE \"" + names.database() + "\" OWNER \"" + names.dbUser() + "\"");
    rabbitmqctl(List.of("add_vhost", names.vhost()));
    rabbitmqctl(List.of("add_user", names.brokerUser(), names.brokerPassword()));
    rabbitmqctl(
        List.of("set_permissions", "-p", names.vhost(), names.brokerUser(), ".*", ".*", ".*"));
    return backing;
  }

  @Override
  public Endpoint endpoint(String service) {
    return switch (service) {
      case "postgres" -> new Endpoint("127.0.0.1", 5432);
      case "rabbitmq" -> new Endpoint("127.0.0.1", 5672);
      default -> throw new AssertionError("no local stand-in for Service " + service);
    };
  }

  @Override
  public Names names() {
    return names;
  }

  @Override
  public void close() {
    drop();
  }

  private void drop() {
    sql(
        "DROP DATABASE IF EXISTS \"" + names.database() + "\" WITH (FORCE)",
        "DROP ROLE IF EXISTS \"" + names.dbUser() + "\"");
    rabbitmqctlIgnoringAbsence(List.of("delete_vhost", names.vhost()));
    rabbitmqctlIgnoringAbsence(List.of("delete_user", names.brokerUser()));
  }

  /** {@code k8srun}, plus this checkout's ONCEONLY_TEST_SUFFIX when set. */
  private static String suffix() {
    String own = System.getenv("ONCEONLY_TEST_SUFFIX");
    return own == null || own.isBlank() ? "k8srun" : "k8srun_" + own.toLowerCase();
  }

  private static void sql(String... statements) {
    try (Connection c = DriverManager.getConnection(ADMIN_URL, "postgres", "");
        Statement st = c.createStatement()) {
      for (String statement : statements) {
        st.execute(statement);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL at " + ADMIN_URL + ": " + e.getMessage(), e);
    }
  }

  private static void rabbitmqctl(List<String> args) {
    String output = run(args);
    if (output != null) {
      throw new IllegalStateException(
          "rabbitmqctl " + String.join(" ", args) + " failed: " + output);
    }
  }

  private static void rabbitmqctlIgnoringAbsence(List<String> args) {
    String output = run(args);
    if (output != null
        && !output.contains("not found")
        && !output.contains("does not exist")
        && !output.contains("no_such")) {
      throw new IllegalStateException(
          "rabbitmqctl " + String.join(" ", args) + " failed: " + output);
    }
  }

  /** Null when it succeeded, else what it printed. */
  private static String run(List<String> args) {
    List<String> command = new java.util.ArrayList<>(List.of("rabbitmqctl", "-q"));
    command.addAll(args);
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return "timed out";
      }
      return process.exitValue() == 0 ? null : output;
    } catch (IOException e) {
      throw new IllegalStateException(
          "rabbitmqctl is needed to create the run's user and vhost", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void requireListening(String name, int port, String howToStart) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
    } catch (IOException e) {
      throw new IllegalStateException(
          name
              + " is not reachable at 127.0.0.1:"
              + port
              + " and no Docker engine answers. Start it with: "
              + howToStart,
          e);
    }
  }
}
