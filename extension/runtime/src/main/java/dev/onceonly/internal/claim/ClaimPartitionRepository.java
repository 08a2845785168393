package dev.onceonly.internal.claim;

import dev.onceonly.internal.db.Jdbc;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The daily partitions of {@code {schema}.processed_messages}: which exist, creating one, and
 * dropping one without blocking claims (detached concurrently first, then dropped). Runs on a
 * connection of its own in autocommit, outside any transaction: {@code DETACH ... CONCURRENTLY}
 * cannot run in one. Partition names and bounds come from dates only.
 */
@Singleton
public class ClaimPartitionRepository {

  /** Partitions of the claims table, their lower bound, and whether a detach is pending. */
  static final String SQL_PARTITIONS =
      """
      SELECT c.relname,
             substring(pg_get_expr(c.relpartbound, c.oid) FROM 'FROM \\(''([0-9-]+)''\\)')::date,
             i.inhdetachpending
        FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = '{schema}.processed_messages'::regclass
       ORDER BY 2
      """;

  static final String SQL_CREATE =
      """
      CREATE TABLE IF NOT EXISTS {schema}.%s PARTITION OF {schema}.processed_messages
         FOR VALUES FROM ('%s') TO ('%s')
      """;

  /** Takes the partition out of the parent without an exclusive lock on the parent. */
  static final String SQL_DETACH =
      "ALTER TABLE {schema}.processed_messages DETACH PARTITION {schema}.%s CONCURRENTLY";

  /** Completes a concurrent detach that was interrupted. */
  static final String SQL_FINALIZE =
      "ALTER TABLE {schema}.processed_messages DETACH PARTITION {schema}.%s FINALIZE";

  static final String SQL_DROP = "DROP TABLE IF EXISTS {schema}.%s";

  /** Partition maintenance never queues claims behind it for long: it gives up and runs later. */
  static final String SQL_TIMEOUTS = "SET lock_timeout = '5s'; SET statement_timeout = '120s'";

  /** One replica at a time maintains the partitions (a session lock, released on close). */
  static final String SQL_TRY_LOCK = "SELECT pg_try_advisory_lock(?)";

  static final String SQL_UNLOCK = "SELECT pg_advisory_unlock(?)";

  /** The advisory lock key of partition maintenance ("oo-parts" folded). */
  static final long LOCK_KEY = 0x6f6f_2d70_6172_7473L;

  private static final DateTimeFormatter SUFFIX = DateTimeFormatter.ofPattern("yyyyMMdd");

  /** One partition: its table name, the day it holds, and whether a detach is pending. */
  public record Partition(String table, LocalDate day, boolean detachPending) {}

  private final Jdbc jdbc;

  public ClaimPartitionRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /** The name of the partition that holds {@code day}. */
  public static String tableOf(LocalDate day) {
    return "processed_messages_p" + SUFFIX.format(day);
  }

  /** Work on the partitions, on one connection, by one replica at a time. */
  @FunctionalInterface
  public interface Maintenance<T> {
    T run(Session session) throws SQLException;
  }

  /** Runs {@code work} holding the maintenance lock; empty when another replica holds it. */
  public <T> java.util.Optional<T> maintain(Maintenance<T> work) throws SQLException {
    try (Connection connection = jdbc.dataSource().getConnection()) {
      connection.setAutoCommit(true);
      try (Statement statement = connection.createStatement()) {
        statement.execute(SQL_TIMEOUTS);
      }
      if (!lock(connection, SQL_TRY_LOCK)) {
        return java.util.Optional.empty();
      }
      try {
        return java.util.Optional.ofNullable(work.run(new Session(connection, jdbc)));
      } finally {
        lock(connection, SQL_UNLOCK);
        try (Statement statement = connection.createStatement()) {
          statement.execute("RESET lock_timeout; RESET statement_timeout");
        }
      }
    }
  }

  private static boolean lock(Connection connection, String sql) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setLong(1, LOCK_KEY);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() && rs.getBoolean(1);
      }
    }
  }

  /** The partition statements, on the maintenance connection. */
  public static final class Session {

    private final Connection connection;
    private final Jdbc jdbc;

    Session(Connection connection, Jdbc jdbc) {
      this.connection = connection;
      this.jdbc = jdbc;
    }

    public List<Partition> partitions() throws SQLException {
      List<Partition> partitions = new ArrayList<>();
      try (Statement statement = connection.createStatement();
          ResultSet rs = statement.executeQuery(jdbc.sql(SQL_PARTITIONS))) {
        while (rs.next()) {
          partitions.add(
              new Partition(rs.getString(1), rs.getObject(2, LocalDate.class), rs.getBoolean(3)));
        }
      }
      return partitions;
    }

    public void create(LocalDate day) throws SQLException {
      execute(jdbc.sql(SQL_CREATE).formatted(tableOf(day), day, day.plusDays(1)));
    }

    /** Detaches (or finishes detaching) and drops a partition. */
    public void drop(Partition partition) throws SQLException {
      String table = checked(partition.table());
      execute(jdbc.sql(partition.detachPending() ? SQL_FINALIZE : SQL_DETACH).formatted(table));
      execute(jdbc.sql(SQL_DROP).formatted(table));
    }

    private void execute(String sql) throws SQLException {
      try (Statement statement = connection.createStatement()) {
        statement.execute(sql);
      }
    }
  }

  /** A partition name as this class makes them, never anything else spliced into DDL. */
  public static String checked(String table) {
    if (!table.matches("processed_messages_p[0-9]{8}")) {
      throw new IllegalArgumentException("not a claim partition: " + table);
    }
    return table;
  }
}
