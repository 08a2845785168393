package dev.onceonly.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A PostgreSQL 15 primary and a streaming standby of the suite's own (scenarios 13 and 14): the
 * standby is a {@code pg_basebackup -R} of the primary fed through the replication slot {@value
 * #SLOT}, synchronous ({@code synchronous_standby_names} names it, {@code synchronous_commit=on})
 * or asynchronous. The services reach them by one multi-host JDBC URL that asks for the primary
 * ({@link #jdbcUrl}), so that after {@link #killPrimary} and {@link #promote} they find the
 * promoted node by themselves. Trust authentication, user postgres, fsync off (nothing outlives the
 * run; a SIGKILL of the server loses what it had not written to the kernel, not what fsync would
 * have kept), commit timestamps tracked (to measure the window a failover loses).
 */
final class PostgresPair implements AutoCloseable {

  static final String SLOT = "standby";
  private static final Path BIN =
      Path.of(System.getenv().getOrDefault("CHAOS_PG_BIN", "/usr/lib/postgresql/15/bin"));

  private final Path dir;
  private final int primaryPort;
  private final int standbyPort;
  private final boolean synchronous;

  private PostgresPair(Path dir, int primaryPort, int standbyPort, boolean synchronous) {
    this.dir = dir;
    this.primaryPort = primaryPort;
    this.standbyPort = standbyPort;
    this.synchronous = synchronous;
  }

  /**
   * initdb and start the primary, a database for the services, the slot, the base backup, the
   * standby; returns once the primary sees it streaming (and, synchronous, as its sync standby).
   */
  static PostgresPair start(int primaryPort, int standbyPort, boolean synchronous)
      throws Exception {
    Path dir = Files.createTempDirectory("onceonly-chaos-pgpair");
    if (Shell.isRoot()) {
      Shell.run(Map.of(), null, 10, "chown", "postgres", dir.toString());
    }
    PostgresPair pair = new PostgresPair(dir, primaryPort, standbyPort, synchronous);
    pg(
        60,
        BIN.resolve("initdb").toString(),
        "-D",
        pair.primaryData().toString(),
        "-A",
        "trust",
        "-U",
        "postgres",
        "--no-sync");
    pair.startNode(pair.primaryData(), primaryPort, pair.commonOptions(primaryPort));
    try (Connection c = connect(primaryPort, "postgres");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + PrivatePostgres.DATABASE);
      s.execute("SELECT pg_create_physical_replication_slot('" + SLOT + "')");
    }
    pg(
        120,
        BIN.resolve("pg_basebackup").toString(),
        "-h",
        "127.0.0.1",
        "-p",
        Integer.toString(primaryPort),
        "-U",
        "postgres",
        "-D",
        pair.standbyData().toString(),
        "-R",
        "-S",
        SLOT,
        "-X",
        "stream",
        "--checkpoint=fast",
        "--no-sync");
    // -R wrote primary_conninfo without an application name: the standby's name is what
    // synchronous_standby_names lists, so the last line, which wins, adds it.
    Files.writeString(
        pair.standbyData().resolve("postgresql.auto.conf"),
        "primary_conninfo = 'host=127.0.0.1 port="
            + primaryPort
            + " user=postgres application_name="
            + SLOT
            + "'\n",
        java.nio.file.StandardOpenOption.APPEND);
    pair.startNode(pair.standbyData(), standbyPort, pair.commonOptions(standbyPort));
    if (synchronous) {
      // Only now: named before the standby streams, it would hold every commit until then
      // (CREATE DATABASE above included). The standby's copy of the settings never names it, so
      // the promoted node does not wait for a standby it does not have.
      try (Connection c = connect(primaryPort, "postgres");
          Statement s = c.createStatement()) {
        s.execute("ALTER SYSTEM SET synchronous_standby_names = '" + SLOT + "'");
        s.execute("SELECT pg_reload_conf()");
      }
    }
    pair.awaitStreaming(Duration.ofSeconds(60));
    return pair;
  }

  private Path primaryData() {
    return dir.resolve("primary");
  }

  private Path standbyData() {
    return dir.resolve("standby");
  }

  private String commonOptions(int port) {
    return "-p "
        + port
        + " -c listen_addresses=127.0.0.1 -c unix_socket_directories="
        + dir
        + " -c fsync=off -c max_connections=200 -c wal_level=replica -c max_wal_senders=5"
        + " -c max_replication_slots=5 -c track_commit_timestamp=on -c synchronous_commit=on";
  }

  private void startNode(Path data, int port, String options)
      throws IOException, InterruptedException {
    pg(
        60,
        BIN.resolve("pg_ctl").toString(),
        "-D",
        data.toString(),
        "-l",
        dir.resolve("server-" + port + ".log").toString(),
        "-w",
        "-o",
        options,
        "start");
  }

  private static String pg(long timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    return Shell.run(Map.of(), null, timeoutSeconds, Shell.as("postgres", command));
  }

  /** Waits until the primary's {@code pg_stat_replication} shows the standby streaming. */
  private void awaitStreaming(Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    String wanted = synchronous ? "sync" : "async";
    String seen = "nothing";
    while (System.nanoTime() < deadline) {
      try (Connection c = connect(primaryPort, "postgres");
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT state, sync_state FROM pg_stat_replication WHERE application_name = '"
                      + SLOT
                      + "'")) {
        if (rs.next()) {
          seen = rs.getString(1) + "/" + rs.getString(2);
          if ("streaming".equals(rs.getString(1)) && wanted.equals(rs.getString(2))) {
            return;
          }
        }
      }
      Thread.sleep(200);
    }
    throw new IOException("the standby is not streaming as " + wanted + " (seen: " + seen + ")");
  }

  /**
   * Both nodes, the primary asked for: the driver tries them in order and keeps the one that is not
   * in recovery, so the services follow a promotion by themselves.
   */
  String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:"
        + primaryPort
        + ",127.0.0.1:"
        + standbyPort
        + "/"
        + PrivatePostgres.DATABASE
        + "?targetServerType=primary";
  }

  boolean synchronous() {
    return synchronous;
  }

  /**
   * SIGSTOP to the primary's WAL sender: the standby receives nothing more while the primary goes
   * on committing (an asynchronous standby falling behind, as over a congested link). The kill that
   * follows takes the stopped process with the rest.
   */
  void stallWalSender() throws Exception {
    long pid;
    try (Connection c = connect(primaryPort, "postgres");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT pid FROM pg_stat_replication WHERE application_name = '" + SLOT + "'")) {
      if (!rs.next()) {
        throw new IOException("no WAL sender serves the standby");
      }
      pid = rs.getLong(1);
    }
    Shell.run(Map.of(), null, 10, "kill", "-STOP", Long.toString(pid));
  }

  /**
   * SIGKILL to the primary's postmaster and every process below it at once: no shutdown checkpoint,
   * no goodbye to the standby or the clients, what was not sent is gone. Returns how many processes
   * it killed.
   */
  int killPrimary() throws IOException, InterruptedException {
    List<Long> postmaster = ProcessCpu.pidFile(primaryData().resolve("postmaster.pid"));
    if (postmaster.isEmpty()) {
      throw new IOException("the primary is not running");
    }
    List<Long> all = new ArrayList<>(postmaster);
    all.addAll(children(postmaster.get(0)));
    List<String> command = new ArrayList<>(List.of("kill", "-9"));
    all.forEach(pid -> command.add(Long.toString(pid)));
    Shell.run(Map.of(), null, 10, command.toArray(String[]::new));
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (Files.exists(Path.of("/proc", Long.toString(postmaster.get(0))))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return all.size();
  }

  private static List<Long> children(long parent) throws IOException {
    List<Long> children = new ArrayList<>();
    try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.toList()) {
        String name = p.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          if (Long.parseLong(after[1]) == parent) {
            children.add(Long.parseLong(name));
          }
        } catch (IOException | RuntimeException gone) {
          // the process ended while we looked
        }
      }
    }
    return children;
  }

  /**
   * Waits until the standby has replayed what it received (the primary is gone: nothing more will
   * come), so that what it shows now is what the promoted node starts with: until its replay
   * position reaches its receive position, or stops moving for half a second (the kill can cut the
   * last WAL record in two, and a record received in part is never replayed; promotion drops it),
   * at most {@code within}.
   */
  void awaitStandbyReplayed(Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    String last = null;
    long stillSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      try (Connection c = connectStandby();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT pg_last_wal_replay_lsn()::text, pg_last_wal_receive_lsn() IS NULL"
                      + " OR pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn()")) {
        rs.next();
        if (rs.getBoolean(2)) {
          return;
        }
        String replayed = rs.getString(1);
        if (!replayed.equals(last)) {
          last = replayed;
          stillSince = System.nanoTime();
        } else if (System.nanoTime() - stillSince > Duration.ofMillis(500).toNanos()) {
          return;
        }
      }
      Thread.sleep(50);
    }
  }

  /** {@code pg_ctl promote}, waiting until the standby accepts writes. */
  void promote() throws IOException, InterruptedException {
    pg(60, BIN.resolve("pg_ctl").toString(), "-D", standbyData().toString(), "-w", "promote");
  }

  /**
   * Starts the killed primary's data directory again on {@code port}, a port the services' URL does
   * not name, read-only and with no synchronous standby to wait for: crash recovery replays what it
   * had written, so it shows what the old primary had committed when it died, for a comparison with
   * the promoted node.
   */
  void reopenOldPrimary(int port) throws IOException, InterruptedException {
    Files.deleteIfExists(primaryData().resolve("postmaster.pid"));
    startNode(primaryData(), port, commonOptions(port) + " -c default_transaction_read_only=on");
  }

  Connection connectStandby() throws SQLException {
    return connect(standbyPort, PrivatePostgres.DATABASE);
  }

  /** The suite's own connection to one node; a statement that hangs fails after a minute. */
  static Connection connect(int port, String database) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:"
            + port
            + "/"
            + database
            + "?connectTimeout=5&socketTimeout=60",
        "postgres",
        "");
  }

  /** The pids of both nodes' postmasters, those that run. */
  List<Long> pids() {
    List<Long> pids = new ArrayList<>(ProcessCpu.pidFile(primaryData().resolve("postmaster.pid")));
    pids.addAll(ProcessCpu.pidFile(standbyData().resolve("postmaster.pid")));
    return pids;
  }

  @Override
  public void close() throws Exception {
    try {
      for (Path data : List.of(standbyData(), primaryData())) {
        if (Files.exists(data.resolve("postmaster.pid"))) {
          Shell.attempt(
              Map.of(),
              null,
              60,
              Shell.as(
                  "postgres",
                  BIN.resolve("pg_ctl").toString(),
                  "-D",
                  data.toString(),
                  "-m",
                  "immediate",
                  "-w",
                  "stop"));
        }
      }
    } finally {
      Shell.run(Map.of(), null, 30, "rm", "-rf", dir.toString());
    }
  }

  @Override
  public String toString() {
    return "PostgreSQL pair on " + primaryPort + "/" + standbyPort;
  }
}
