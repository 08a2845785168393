package dev.onceonly.relay.operations;

import dev.onceonly.model.OutboxSchema;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The changes an operator makes to {@code outbox.outbox}. Every method runs in the caller's
 * transaction (the audit row is written in the same one); none commits by itself.
 */
@ApplicationScoped
public class OutboxChangeRepository {

  /**
   * Dead → pending, due now. {@code attempts} is kept (the completion fence needs it monotonic);
   * the attempt budget restarts from it.
   */
  static final String SQL_RETRY =
      """
      UPDATE outbox.outbox
         SET status = 'pending', available_at = now(), attempts_at_retry = attempts
       WHERE id = ? AND status = 'dead'
      RETURNING idempotency_key
      """;

  /** Pending or dead → cancelled; a row being delivered right now is not touched. */
  static final String SQL_CANCEL =
      """
      UPDATE outbox.outbox
         SET status = 'cancelled', cancelled_at = now()
       WHERE id = ? AND status IN ('pending', 'dead')
      RETURNING idempotency_key
      """;

  static final String SQL_STATUS = "SELECT status FROM outbox.outbox WHERE id = ?";

  /**
   * The relay's pool commits with {@code synchronous_commit = off} for the delivery loop's sake; an
   * operator's change and its audit row wait for the WAL flush like any business write.
   */
  static final String SQL_COMMIT_DURABLY = "SET LOCAL synchronous_commit = on";

  /** Relays wake at commit, as for an insert (the trigger only fires on inserts). */
  static final String SQL_WAKE_RELAYS = "SELECT pg_notify(?, '')";

  /** One replay at a time across every relay; released at commit or rollback. */
  static final String SQL_REPLAY_LOCK = "SELECT pg_try_advisory_xact_lock(?)";

  /** The advisory lock key a replay holds for its transaction (ASCII "oo-replay" folded). */
  public static final long REPLAY_LOCK_KEY = 0x6f6f_7265_706c_6179L;

  /** Only the rows an operator named (a dry run's ids), bound as one {@code bigint[]}. */
  static final String BY_IDS = " AND o.id = ANY (?)";

  static final String SQL_COUNT_DEAD =
      "SELECT count(*) FROM outbox.outbox o WHERE o.status = 'dead' %s";

  static final String SQL_FIRST_DEAD =
      "SELECT o.id FROM outbox.outbox o WHERE o.status = 'dead' %s ORDER BY o.id LIMIT ?";

  /**
   * Dead → pending for the first rows of a filter, oldest first, each due one step after the
   * previous from {@code start}, so the relay sends them at the replay rate.
   */
  static final String SQL_REPLAY =
      """
      WITH picked AS (
             SELECT o.id FROM outbox.outbox o
              WHERE o.status = 'dead' %s
              ORDER BY o.id
              LIMIT ?
                FOR UPDATE),
           slots AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS slot FROM picked)
      UPDATE outbox.outbox t
         SET status = 'pending', attempts_at_retry = t.attempts,
             available_at = ?::timestamptz + s.slot * ? * interval '1 microsecond'
        FROM slots s
       WHERE t.id = s.id
      RETURNING t.id
      """;

  private final DataSource dataSource;

  public OutboxChangeRepository(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The row's idempotency key if it was dead and is now pending; empty if it was not dead. */
  public Optional<String> retry(long id) {
    return updateOne(SQL_RETRY, id);
  }

  /** The row's idempotency key if it is now cancelled; empty if it was not pending or dead. */
  public Optional<String> cancel(long id) {
    return updateOne(SQL_CANCEL, id);
  }

  /** The row's status, or empty when there is no such row. */
  public Optional<String> status(long id) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_STATUS)) {
      statement.setLong(1, id);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("reading outbox row " + id + " failed", e);
    }
  }

  /** Makes the caller's transaction commit durably, whatever the pool's default. */
  public void commitDurably() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_COMMIT_DURABLY)) {
      statement.execute();
    } catch (SQLException e) {
      throw new IllegalStateException("setting synchronous_commit for the change failed", e);
    }
  }

  /** Notifies every relay at commit that rows may be due. */
  public void wakeRelays() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_WAKE_RELAYS)) {
      statement.setString(1, OutboxSchema.NOTIFY_CHANNEL);
      statement.execute();
    } catch (SQLException e) {
      throw new IllegalStateException("notifying relays failed", e);
    }
  }

  /** Takes the replay lock for this transaction; false when another replay holds it. */
  public boolean tryReplayLock() {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(SQL_REPLAY_LOCK)) {
      statement.setLong(1, REPLAY_LOCK_KEY);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("taking the replay lock failed", e);
    }
  }

  /**
   * Dead rows matching {@code filter} (its status is ignored: replay only takes dead rows) and, if
   * {@code ids} is not null, among those ids.
   */
  public long countDead(OutboxFilter filter, List<Long> ids) {
    FilterSql where = where(filter, ids);
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(SQL_COUNT_DEAD.formatted(where.where()))) {
      where.bind(statement, 1);
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("counting dead outbox rows failed", e);
    }
  }

  /**
   * Ids of the first {@code limit} dead rows matching {@code filter} and {@code ids}, oldest first.
   */
  public List<Long> firstDead(OutboxFilter filter, List<Long> ids, int limit) {
    FilterSql where = where(filter, ids);
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(SQL_FIRST_DEAD.formatted(where.where()))) {
      statement.setInt(where.bind(statement, 1), limit);
      return ids(statement);
    } catch (SQLException e) {
      throw new IllegalStateException("listing dead outbox rows failed", e);
    }
  }

  /**
   * Moves the first {@code limit} dead rows matching {@code filter} (and among {@code ids} unless
   * it is null) back to pending, due from {@code start} one every {@code stepMicros}; returns their
   * ids, oldest first.
   */
  public List<Long> replay(
      OutboxFilter filter, List<Long> ids, int limit, Instant start, long stepMicros) {
    FilterSql where = where(filter, ids);
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement =
            connection.prepareStatement(SQL_REPLAY.formatted(where.where()))) {
      int i = where.bind(statement, 1);
      statement.setInt(i++, limit);
      statement.setObject(i++, start.atOffset(ZoneOffset.UTC));
      statement.setLong(i, stepMicros);
      List<Long> moved = ids(statement);
      moved.sort(Long::compare);
      return moved;
    } catch (SQLException e) {
      throw new IllegalStateException("replaying dead outbox rows failed", e);
    }
  }

  private Optional<String> updateOne(String sql, long id) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setLong(1, id);
      try (ResultSet rs = statement.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("changing outbox row " + id + " failed", e);
    }
  }

  private static List<Long> ids(PreparedStatement statement) throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  private static FilterSql where(OutboxFilter filter, List<Long> ids) {
    return new FilterSql(withoutStatus(filter))
        .add(BY_IDS, ids == null ? null : ids.toArray(Long[]::new));
  }

  private static OutboxFilter withoutStatus(OutboxFilter filter) {
    return new OutboxFilter(
        null,
        filter.destination(),
        filter.orderingKey(),
        filter.idempotencyKey(),
        filter.createdAfter(),
        filter.createdBefore());
  }
}
