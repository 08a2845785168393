package dev.onceonly.internal.operations;

import dev.onceonly.internal.db.Jdbc;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** All SQL of {@code {schema}.audit_log}: one row per change made through the API. */
@Singleton
public class AuditRepository {

  static final String SQL_INSERT =
      """
      INSERT INTO {schema}.audit_log (actor, action, target, filter, affected)
      VALUES (?, ?, ?, ?, ?)
      """;

  static final String SQL_LIST =
      """
      SELECT id, actor, action, target, filter, affected, at
        FROM {schema}.audit_log ORDER BY id DESC LIMIT ?
      """;

  private final Jdbc jdbc;

  public AuditRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  public void record(String actor, String action, String target, String filter, int affected)
      throws SQLException {
    jdbc.update(SQL_INSERT, actor, action, target, filter, affected);
  }

  public List<Entry> latest(int limit) throws SQLException {
    return jdbc.list(
        SQL_LIST,
        rs ->
            new Entry(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getInt(6),
                rs.getTimestamp(7).toInstant()),
        limit);
  }

  /** One audited change. */
  public record Entry(
      long id,
      String actor,
      String action,
      String target,
      String filter,
      int affected,
      Instant at) {}
}
