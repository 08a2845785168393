package dev.onceonly.relay.metrics;

import dev.onceonly.runtime.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * What the database says about OnceOnly's tables and transactions, for the growth gauges: sizes,
 * dead tuples and partitions of each table (a partitioned table counts all of its partitions), and
 * the oldest open transaction, which holds back what VACUUM may remove.
 */
@ApplicationScoped
public class DatabaseStatsRepository {

  /**
   * Per table (schema-qualified, missing tables left out): heap bytes (with TOAST), index bytes,
   * dead tuples, leaf partitions (1 for a plain table), and for a range-partitioned table the
   * oldest partition's first day as days before today and the newest partition's last day as days
   * after today (UTC days; null for a plain table).
   */
  static final String SQL_TABLES =
      """
      WITH t AS (SELECT name, to_regclass(name) AS oid FROM unnest(?::text[]) AS u(name)),
      parts AS (
          SELECT t.name, p.relid, p.isleaf FROM t CROSS JOIN LATERAL pg_partition_tree(t.oid) p
          UNION ALL
          SELECT t.name, t.oid, true FROM t JOIN pg_class c ON c.oid = t.oid
           WHERE c.relkind <> 'p')
      SELECT parts.name,
             sum(pg_table_size(parts.relid)),
             sum(pg_indexes_size(parts.relid)),
             sum(coalesce(s.n_dead_tup, 0)),
             count(*) FILTER (WHERE parts.isleaf),
             (now() AT TIME ZONE 'UTC')::date
               - min(substring(pg_get_expr(c.relpartbound, c.oid)
                               FROM 'FROM \\(''([0-9-]+)''\\)')::date),
             max(substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''([0-9-]+)''\\)')::date)
               - 1 - (now() AT TIME ZONE 'UTC')::date
        FROM parts
        JOIN pg_class c ON c.oid = parts.relid
        LEFT JOIN pg_stat_all_tables s ON s.relid = parts.relid
       GROUP BY parts.name
      """;

  /**
   * Age of the oldest transaction of this database that holds a snapshot or an id (and so holds
   * back the xmin horizon), prepared transactions included; null when there is none.
   */
  static final String SQL_OLDEST_TRANSACTION =
      """
      SELECT floor(EXTRACT(EPOCH FROM now() - least(
               (SELECT min(xact_start) FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid()
                   AND (backend_xmin IS NOT NULL OR backend_xid IS NOT NULL)),
               (SELECT min(prepared) FROM pg_prepared_xacts
                 WHERE database = current_database()))))::bigint
      """;

  /** One table's figures. */
  public record TableStats(
      String table,
      long tableBytes,
      long indexBytes,
      long deadTuples,
      long partitions,
      OptionalLong oldestPartitionAgeDays,
      OptionalLong newestPartitionAheadDays) {}

  private final Jdbc jdbc;

  public DatabaseStatsRepository(DataSource dataSource) {
    this.jdbc = new Jdbc(dataSource);
  }

  public List<TableStats> tables(Collection<String> tables) {
    return jdbc.inTransaction(
        connection -> {
          try (Statement serial = connection.createStatement()) {
            serial.execute("SET LOCAL max_parallel_workers_per_gather = 0");
          }
          try (PreparedStatement statement = connection.prepareStatement(SQL_TABLES)) {
            statement.setArray(1, Jdbc.textArray(connection, tables));
            List<TableStats> stats = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                stats.add(
                    new TableStats(
                        rs.getString(1),
                        rs.getLong(2),
                        rs.getLong(3),
                        rs.getLong(4),
                        rs.getLong(5),
                        optional(rs, 6),
                        optional(rs, 7)));
              }
            }
            return stats;
          }
        });
  }

  private static OptionalLong optional(ResultSet rs, int column) throws java.sql.SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
  }

  /** Seconds since the oldest transaction holding back the xmin horizon began; 0 when none. */
  public long oldestTransactionAgeSeconds() {
    return jdbc.inTransaction(
        connection -> {
          try (PreparedStatement statement = connection.prepareStatement(SQL_OLDEST_TRANSACTION);
              ResultSet rs = statement.executeQuery()) {
            rs.next();
            long seconds = rs.getLong(1);
            return rs.wasNull() ? 0L : Math.max(0L, seconds);
          }
        });
  }
}
