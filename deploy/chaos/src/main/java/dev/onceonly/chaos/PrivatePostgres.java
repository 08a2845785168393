package dev.onceonly.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL 15 cluster of the suite's own, in a temporary directory, on its own port: the
 * scenarios stop it and terminate its backends, which they must never do to the machine's shared
 * server. Trust authentication, user postgres, fsync off (nothing in it outlives the run).
 */
final class PrivatePostgres implements AutoCloseable {

  static final String DATABASE = "onceonly_chaos";
  private static final Path BIN =
      Path.of(System.getenv().getOrDefault("CHAOS_PG_BIN", "/usr/lib/postgresql/15/bin"));

  private final Path dir;
  private final int port;

  private PrivatePostgres(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  static boolean installed() {
    return Files.isExecutable(BIN.resolve("pg_ctl")) && Files.isExecutable(BIN.resolve("initdb"));
  }

  static String binaries() {
    return BIN.toString();
  }

  /** initdb, start, and a fresh database for the services. */
  static PrivatePostgres start(int port) throws Exception {
    Path dir = Files.createTempDirectory("onceonly-chaos-pg");
    if (Shell.isRoot()) {
      Shell.run(Map.of(), null, 10, "chown", "postgres", dir.toString());
    }
    PrivatePostgres pg = new PrivatePostgres(dir, port);
    Shell.run(
        Map.of(),
        dir,
        60,
        Shell.as(
            "postgres",
            BIN.resolve("initdb").toString(),
            "-D",
            dir.resolve("data").toString(),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync"));
    pg.startAgain();
    try (Connection c = pg.connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + DATABASE);
    }
    return pg;
  }

  /** Starts the stopped cluster and waits until it accepts connections. */
  void startAgain() throws IOException, InterruptedException {
    String options =
        "-p "
            + port
            + " -c listen_addresses=127.0.0.1 -c unix_socket_directories="
            + dir
            + " -c fsync=off -c synchronous_commit=off -c max_connections=200";
    Shell.run(
        Map.of(),
        dir,
        60,
        Shell.as(
            "postgres",
            BIN.resolve("pg_ctl").toString(),
            "-D",
            dir.resolve("data").toString(),
            "-l",
            dir.resolve("server.log").toString(),
            "-w",
            "-o",
            options,
            "start"));
  }

  /** Stops it (fast: open transactions roll back, clients are disconnected). */
  void stop() throws IOException, InterruptedException {
    Shell.run(Map.of(), dir, 60, stopCommand());
  }

  private String[] stopCommand() {
    return Shell.as(
        "postgres",
        BIN.resolve("pg_ctl").toString(),
        "-D",
        dir.resolve("data").toString(),
        "-m",
        "fast",
        "-w",
        "stop");
  }

  /** The postmaster's pid (its backends are its children), if it runs. */
  List<Long> pids() {
    return ProcessCpu.pidFile(dir.resolve("data").resolve("postmaster.pid"));
  }

  /** Terminates every backend of the services' database but the caller's; returns how many. */
  int terminateServiceBackends() throws SQLException {
    try (Connection c = connect("postgres");
        Statement s = c.createStatement();
        var rs =
            s.executeQuery(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
                    + " WHERE datname = '"
                    + DATABASE
                    + "' AND pid <> pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
  }

  Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + port + "/" + database, "postgres", "");
  }

  @Override
  public void close() throws Exception {
    try {
      Shell.attempt(Map.of(), dir, 60, stopCommand());
    } finally {
      Shell.run(Map.of(), null, 30, "rm", "-rf", dir.toString());
    }
  }
}
