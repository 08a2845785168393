package dev.onceonly.consumer.claim;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** All SQL of {@code loyalty.rejections}: messages decided without an effect, and why. */
@ApplicationScoped
public class RejectionRepository {

  static final String SQL_INSERT =
      """
      INSERT INTO loyalty.rejections (consumer, message_key, reason, detail)
      VALUES (?, ?, ?, ?)
      ON CONFLICT (consumer, message_key) DO NOTHING
      """;

  static final String SQL_LIST =
      """
      SELECT id, consumer, message_key, reason, detail, rejected_at
        FROM loyalty.rejections
       WHERE (?::text IS NULL OR consumer = ?)
       ORDER BY id DESC
       LIMIT ?
      """;

  private final AgroalDataSource dataSource;

  public RejectionRepository(AgroalDataSource dataSource) {
    this.dataSource = dataSource;
  }

  public void record(String consumer, String messageKey, String reason, String detail)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_INSERT)) {
      ps.setString(1, consumer);
      ps.setString(2, messageKey);
      ps.setString(3, reason);
      ps.setString(4, detail);
      ps.executeUpdate();
    }
  }

  public List<Rejection> list(String consumer, int limit) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_LIST)) {
      ps.setString(1, consumer);
      ps.setString(2, consumer);
      ps.setInt(3, limit);
      List<Rejection> rejections = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rejections.add(
              new Rejection(
                  rs.getLong(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getTimestamp(6).toInstant()));
        }
      }
      return rejections;
    }
  }

  /** A recorded rejection. */
  public record Rejection(
      long id,
      String consumer,
      String messageKey,
      String reason,
      String detail,
      Instant rejectedAt) {}
}
