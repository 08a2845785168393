package dev.onceonly.relay.audit;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** All SQL of {@code outbox.outbox_audit}. Writes join the caller's transaction. */
@ApplicationScoped
public class AuditRepository {

  static final String SQL_INSERT =
      """
      INSERT INTO outbox.outbox_audit
             (actor, action, target_id, filter, affected_count, dry_run, scheduled_until)
      VALUES (?, ?, ?, ?::jsonb, ?, ?, ?)
      """;

  /** Newest first, below a cursor id. */
  static final String SQL_LIST =
      """
      SELECT id, actor, action, target_id, filter::text, affected_count, dry_run, at,
             scheduled_until
        FROM outbox.outbox_audit
       WHERE id < ?
       ORDER BY id DESC
       LIMIT ?
      """;

  /** The database clock and the last slot any replay scheduled (null if none). */
  static final String SQL_REPLAY_CLOCK =
      """
      SELECT now(), max(scheduled_until) FROM outbox.outbox_audit
       WHERE scheduled_until IS NOT NULL
      """;

  /** The database's {@code now()} and the last replay slot, to chain replays at one rate. */
  public record ReplayClock(Instant now, Instant lastSlot) {}

  private final DataSource dataSource;

  public AuditRepository(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  public void record(
      String actor,
      AuditAction action,
      Long targetId,
      String filter,
      int affectedCount,
      boolean dryRun,
      Instant scheduledUntil) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_INSERT)) {
      statement.setString(1, actor);
      statement.setString(2, action.value());
      if (targetId == null) {
        statement.setNull(3, Types.BIGINT);
      } else {
        statement.setLong(3, targetId);
      }
      statement.setString(4, filter);
      statement.setInt(5, affectedCount);
      statement.setBoolean(6, dryRun);
      statement.setObject(
          7, scheduledUntil == null ? null : scheduledUntil.atOffset(ZoneOffset.UTC));
      statement.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("writing the audit row failed", e);
    }
  }

  /** Up to {@code size} entries older than {@code cursor} (null: the newest), newest first. */
  public List<AuditEntry> list(Long cursor, int size) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_LIST)) {
      statement.setLong(1, cursor == null ? Long.MAX_VALUE : cursor);
      statement.setInt(2, size);
      List<AuditEntry> entries = new ArrayList<>(size);
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          long target = rs.getLong(4);
          Long targetId = rs.wasNull() ? null : target;
          entries.add(
              new AuditEntry(
                  rs.getLong(1),
                  rs.getString(2),
                  rs.getString(3),
                  targetId,
                  rs.getString(5),
                  rs.getInt(6),
                  rs.getBoolean(7),
                  instant(rs, 8),
                  instant(rs, 9)));
        }
      }
      return entries;
    } catch (SQLException e) {
      throw new IllegalStateException("reading the audit failed", e);
    }
  }

  public ReplayClock replayClock() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_REPLAY_CLOCK);
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      return new ReplayClock(instant(rs, 1), instant(rs, 2));
    } catch (SQLException e) {
      throw new IllegalStateException("reading the replay schedule failed", e);
    }
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
