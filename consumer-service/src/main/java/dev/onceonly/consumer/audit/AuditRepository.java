package dev.onceonly.consumer.audit;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** All SQL of {@code loyalty.audit_log}: one row per change made through the API. */
@ApplicationScoped
public class AuditRepository {

  static final String SQL_INSERT =
      """
      INSERT INTO loyalty.audit_log (actor, action, target, filter, affected)
      VALUES (?, ?, ?, ?, ?)
      """;

  static final String SQL_LIST =
      """
      SELECT id, actor, action, target, filter, affected, at
        FROM loyalty.audit_log ORDER BY id DESC LIMIT ?
      """;

  private final AgroalDataSource dataSource;

  public AuditRepository(AgroalDataSource dataSource) {
    this.dataSource = dataSource;
  }

  public void record(String actor, String action, String target, String filter, int affected)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_INSERT)) {
      ps.setString(1, actor);
      ps.setString(2, action);
      ps.setString(3, target);
      ps.setString(4, filter);
      ps.setInt(5, affected);
      ps.executeUpdate();
    }
  }

  public List<Entry> latest(int limit) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_LIST)) {
      ps.setInt(1, limit);
      List<Entry> entries = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          entries.add(
              new Entry(
                  rs.getLong(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getInt(6),
                  rs.getTimestamp(7).toInstant()));
        }
      }
      return entries;
    }
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
