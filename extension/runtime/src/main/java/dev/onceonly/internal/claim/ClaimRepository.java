package dev.onceonly.internal.claim;

import dev.onceonly.internal.db.Jdbc;
import jakarta.inject.Singleton;
import java.sql.Date;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * All SQL of {@code {schema}.processed_messages} (partitioned by {@code event_date}, one partition
 * a day; {@link ClaimPartitionRepository} creates and drops them). Runs inside the caller's
 * transaction. Every claim names its day, so that it touches one partition only.
 */
@Singleton
public class ClaimRepository {

  /**
   * The claim and, when it conflicts with a claim committed before this statement began, the stored
   * fingerprint, in one round trip. A claim committed by a transaction this insert had to wait for
   * is not in the statement's snapshot: then no row comes back and {@link #find} reads it with a
   * fresh one.
   */
  static final String SQL_CLAIM =
      """
      WITH claimed AS (
          INSERT INTO {schema}.processed_messages (consumer, message_key, payload_sha256, event_date)
          VALUES (?, ?, ?, ?)
          ON CONFLICT DO NOTHING
          RETURNING payload_sha256)
      SELECT true, payload_sha256 FROM claimed
      UNION ALL
      SELECT false, payload_sha256 FROM {schema}.processed_messages
       WHERE consumer = ? AND message_key = ? AND event_date = ?
         AND NOT EXISTS (SELECT 1 FROM claimed)
      """;

  /**
   * {@link #SQL_CLAIM} for several distinct keys in one statement, inserted in the order given. Per
   * key, in that order: claimed now, and the fingerprint stored by an earlier claim (null when
   * claimed now, or when the claim that conflicted committed after this statement began).
   */
  static final String SQL_CLAIM_ALL =
      """
      WITH input AS (
          SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY
                 AS i(consumer, message_key, payload_sha256, event_date, n)),
      claimed AS (
          INSERT INTO {schema}.processed_messages (consumer, message_key, payload_sha256, event_date)
          SELECT consumer, message_key, payload_sha256, event_date::date FROM input ORDER BY n
          ON CONFLICT DO NOTHING
          RETURNING consumer, message_key)
      SELECT c.message_key IS NOT NULL,
             (SELECT p.payload_sha256 FROM {schema}.processed_messages p
               WHERE p.consumer = i.consumer AND p.message_key = i.message_key
                 AND p.event_date = i.event_date::date)
        FROM input i
        LEFT JOIN claimed c ON c.consumer = i.consumer AND c.message_key = i.message_key
       ORDER BY i.n
      """;

  /** The claim of a key, the newest if copies dated other days were ever claimed. */
  static final String SQL_FIND =
      """
      SELECT consumer, message_key, payload_sha256, event_date, processed_at
        FROM {schema}.processed_messages
       WHERE consumer = ? AND message_key = ?
       ORDER BY event_date DESC
       LIMIT 1
      """;

  static final String SQL_FIND_ON_DAY =
      """
      SELECT payload_sha256 FROM {schema}.processed_messages
       WHERE consumer = ? AND message_key = ? AND event_date = ?
      """;

  /**
   * The fingerprint of a claim of the key dated another day: every partition is looked at, so this
   * runs only when an effect's natural key says the key was decided before.
   */
  static final String SQL_FINGERPRINT_ON_ANOTHER_DAY =
      """
      SELECT payload_sha256 FROM {schema}.processed_messages
       WHERE consumer = ? AND message_key = ? AND event_date <> ?
       ORDER BY event_date
       LIMIT 1
      """;

  /** Takes back a claim made in this transaction (a copy that turned out to conflict). */
  static final String SQL_RELEASE =
      """
      DELETE FROM {schema}.processed_messages
       WHERE consumer = ? AND message_key = ? AND event_date = ?
      """;

  private final Jdbc jdbc;

  public ClaimRepository(Jdbc jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Claims a key: the insert's row count is the answer, never a caught unique violation. A
   * concurrent uncommitted claim of the same key makes this wait for that transaction's end.
   */
  public ClaimResult claim(String consumer, String messageKey, String sha256, LocalDate eventDate)
      throws SQLException {
    Optional<ClaimRow> row =
        jdbc.one(
            SQL_CLAIM,
            rs -> new ClaimRow(rs.getBoolean(1), rs.getString(2)),
            consumer,
            messageKey,
            sha256,
            Date.valueOf(eventDate),
            consumer,
            messageKey,
            Date.valueOf(eventDate));
    return result(consumer, messageKey, sha256, eventDate, row.orElse(null));
  }

  private ClaimResult result(
      String consumer, String messageKey, String sha256, LocalDate eventDate, ClaimRow row)
      throws SQLException {
    if (row != null && row.claimed()) {
      return ClaimResult.CLAIMED;
    }
    String stored = row == null ? null : row.payloadSha256();
    if (stored == null) {
      stored =
          jdbc.one(
                  SQL_FIND_ON_DAY,
                  rs -> rs.getString(1),
                  consumer,
                  messageKey,
                  Date.valueOf(eventDate))
              .orElseThrow(
                  () ->
                      new SQLException(
                          "claim of " + messageKey + " vanished between insert and read", "40001"));
    }
    return stored.equals(sha256) ? ClaimResult.DUPLICATE : ClaimResult.CONFLICT;
  }

  /** One key to claim: {@link #claimAll} takes several. */
  public record Request(String consumer, String messageKey, String sha256, LocalDate eventDate) {}

  /**
   * Claims several keys, all different, in one round trip, in the order given (the caller's lock
   * order); answers in the same order, as {@link #claim} would for each.
   */
  public List<ClaimResult> claimAll(List<Request> requests) throws SQLException {
    List<ClaimRow> rows =
        jdbc.list(
            SQL_CLAIM_ALL,
            rs -> new ClaimRow(rs.getBoolean(1), rs.getString(2)),
            requests.stream().map(Request::consumer).toArray(String[]::new),
            requests.stream().map(Request::messageKey).toArray(String[]::new),
            requests.stream().map(Request::sha256).toArray(String[]::new),
            requests.stream().map(r -> r.eventDate().toString()).toArray(String[]::new));
    if (rows.size() != requests.size()) {
      throw new IllegalStateException(
          "claim of " + requests.size() + " keys answered " + rows.size() + " rows");
    }
    List<ClaimResult> results = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      Request r = requests.get(i);
      results.add(result(r.consumer(), r.messageKey(), r.sha256(), r.eventDate(), rows.get(i)));
    }
    return results;
  }

  public Optional<Claim> find(String consumer, String messageKey) throws SQLException {
    return jdbc.one(
        SQL_FIND,
        rs ->
            new Claim(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                rs.getDate(4).toLocalDate(),
                rs.getTimestamp(5).toInstant()),
        consumer,
        messageKey);
  }

  /** The fingerprint of a claim of the key dated another day than {@code day}, if any. */
  public Optional<String> fingerprintOnAnotherDay(String consumer, String messageKey, LocalDate day)
      throws SQLException {
    return jdbc.one(
        SQL_FINGERPRINT_ON_ANOTHER_DAY,
        rs -> rs.getString(1),
        consumer,
        messageKey,
        Date.valueOf(day));
  }

  /** Takes back the claim of the key on {@code day} made in this transaction. */
  public void release(String consumer, String messageKey, LocalDate day) throws SQLException {
    jdbc.update(SQL_RELEASE, consumer, messageKey, Date.valueOf(day));
  }

  /** One row of {@link #SQL_CLAIM}: claimed now, or the fingerprint stored by an earlier claim. */
  private record ClaimRow(boolean claimed, String payloadSha256) {}
}
