package dev.onceonly.internal.claim;

import dev.onceonly.internal.db.Jdbc;
import jakarta.inject.Singleton;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** All SQL of {@code {schema}.rejections}: messages decided without an effect, and why. */
@Singleton
public class RejectionRepository {

  /**
   * One row per key; the first rejection stays, with one exception: a handler's rejection
   * supersedes a date rejection ({@code future}, {@code stale}) of the same key. A date rejection
   * refuses one copy by its date and decides nothing about the key, but a handler's rejection
   * decides the message (say, a redemption the balance did not cover): {@link #rejectedBefore} is
   * what makes a later copy dated another day a conflict instead of an effect, so it must never be
   * hidden behind a date rejection. The superseded rejection's reason and detail are kept at the
   * end of the new detail; a date rejection after a handler's rejection changes nothing.
   */
  static final String SQL_INSERT =
      """
      INSERT INTO {schema}.rejections AS r (consumer, message_key, reason, detail)
      VALUES (?, ?, ?, ?)
      ON CONFLICT (consumer, message_key) DO UPDATE
         SET reason = EXCLUDED.reason,
             detail = EXCLUDED.detail || ' (supersedes an earlier ' || r.reason
                      || ' rejection of the key: ' || r.detail || ')',
             rejected_at = now()
       WHERE EXCLUDED.reason NOT IN ('future', 'stale') AND r.reason IN ('future', 'stale')
      """;

  /** The reason of an event dated too far ahead of the service's clock. */
  public static final String FUTURE = "future";

  /** The reason of an event older than the claim window plus the replay horizon. */
  public static final String STALE = "stale";

  static final String SQL_REJECTED_FOR =
      """
      SELECT 1 FROM {schema}.rejections WHERE consumer = ? AND message_key = ? AND reason = ?
      """;

  static final String SQL_LIST =
      """
      SELECT id, consumer, message_key, reason, detail, rejected_at
        FROM {schema}.rejections
       WHERE (?::text IS NULL OR consumer = ?)
       ORDER BY id DESC
       LIMIT ?
      """;

  private final Jdbc jdbc;

  public RejectionRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  public void record(String consumer, String messageKey, String reason, String detail)
      throws SQLException {
    jdbc.update(SQL_INSERT, consumer, messageKey, reason, detail);
  }

  /** Whether {@code consumer} rejected the key for {@code reason}. */
  public boolean rejectedBefore(String consumer, String messageKey, String reason)
      throws SQLException {
    return jdbc.one(SQL_REJECTED_FOR, rs -> true, consumer, messageKey, reason).isPresent();
  }

  public List<Rejection> list(String consumer, int limit) throws SQLException {
    return jdbc.list(
        SQL_LIST,
        rs ->
            new Rejection(
                rs.getLong(1),
                rs.getString(2),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getTimestamp(6).toInstant()),
        consumer,
        consumer,
        limit);
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
