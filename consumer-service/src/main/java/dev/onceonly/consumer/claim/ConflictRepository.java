package dev.onceonly.consumer.claim;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** All SQL of {@code loyalty.message_conflicts}: payloads quarantined under a claimed key. */
@ApplicationScoped
public class ConflictRepository {

  static final String SQL_INSERT =
      """
      INSERT INTO loyalty.message_conflicts
             (consumer, message_key, stored_sha256, received_sha256, payload)
      SELECT consumer, message_key, payload_sha256, ?, ?
        FROM loyalty.processed_messages
       WHERE consumer = ? AND message_key = ?
      """;

  static final String SQL_LIST =
      """
      SELECT id, consumer, message_key, stored_sha256, received_sha256, payload, detected_at
        FROM loyalty.message_conflicts
       WHERE (?::text IS NULL OR consumer = ?)
       ORDER BY id DESC
       LIMIT ?
      """;

  private final AgroalDataSource dataSource;

  public ConflictRepository(AgroalDataSource dataSource) {
    this.dataSource = dataSource;
  }

  public void record(String consumer, String messageKey, String receivedSha256, String payload)
      throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_INSERT)) {
      ps.setString(1, receivedSha256);
      ps.setString(2, payload);
      ps.setString(3, consumer);
      ps.setString(4, messageKey);
      ps.executeUpdate();
    }
  }

  public List<Conflict> list(String consumer, int limit) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(SQL_LIST)) {
      ps.setString(1, consumer);
      ps.setString(2, consumer);
      ps.setInt(3, limit);
      List<Conflict> conflicts = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          conflicts.add(
              new Conflict(
                  rs.getLong(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6),
                  rs.getTimestamp(7).toInstant()));
        }
      }
      return conflicts;
    }
  }

  /** A quarantined payload. */
  public record Conflict(
      long id,
      String consumer,
      String messageKey,
      String storedSha256,
      String receivedSha256,
      String payload,
      java.time.Instant detectedAt) {}
}
