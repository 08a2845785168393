package dev.onceonly.internal.claim;

import dev.onceonly.internal.db.Jdbc;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import java.util.List;

/** All SQL of {@code {schema}.message_conflicts}: payloads quarantined under a claimed key. */
@Singleton
public class ConflictRepository {

  static final String SQL_INSERT =
      """
      INSERT INTO {schema}.message_conflicts
             (consumer, message_key, stored_sha256, received_sha256, payload)
      SELECT consumer, message_key, payload_sha256, ?, ?
        FROM {schema}.processed_messages
       WHERE consumer = ? AND message_key = ? AND payload_sha256 <> ?
       ORDER BY event_date
       LIMIT 1
      """;

  static final String SQL_LIST =
      """
      SELECT id, consumer, message_key, stored_sha256, received_sha256, payload, detected_at
        FROM {schema}.message_conflicts
       WHERE (?::text IS NULL OR consumer = ?)
       ORDER BY id DESC
       LIMIT ?
      """;

  private final Jdbc jdbc;

  public ConflictRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  public void record(String consumer, String messageKey, String receivedSha256, String payload)
      throws SQLException {
    jdbc.update(SQL_INSERT, receivedSha256, payload, consumer, messageKey, receivedSha256);
  }

  public List<Conflict> list(String consumer, int limit) throws SQLException {
    return jdbc.list(
        SQL_LIST,
        rs ->
            new Conflict(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getTimestamp(7).toInstant()),
        consumer,
        consumer,
        limit);
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
