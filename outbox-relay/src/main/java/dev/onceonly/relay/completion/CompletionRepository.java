package dev.onceonly.relay.completion;

import dev.onceonly.runtime.Jdbc;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/**
 * All SQL that writes the outcome of attempts to {@code outbox.outbox} and {@code
 * outbox.outbox_attempts}: one statement per batch, in a short transaction of its own, never around
 * a provider call (ARCHITECTURE.md §5).
 */
@ApplicationScoped
public class CompletionRepository {

  /**
   * A batch of completions in one statement: each row's outcome is written only where the fence
   * holds (id, lease owner, attempt, the lease's end, still in flight; the end tells apart two
   * leases with the same owner and attempt, as a failover can grant: {@link
   * dev.onceonly.relay.lease.LeasedRow}), so a relay that lost its lease writes nothing to the row;
   * every attempt is recorded either way ({@code lease_lost} when the fence did not hold), unless
   * retention already removed the row. Arrays, one element per completion: id, attempt, relay,
   * outcome, HTTP status, retry delay (ms), the row's new {@code last_error}, the attempt's error,
   * start and end (microseconds since the epoch), the attempt's traceparent, whether it counts
   * against the row's budget (one that does not raises {@code attempts_at_retry}, so {@code
   * attempts - attempts_at_retry} stays where it was), the destination, the lease's end
   * (microseconds since the epoch). Returns each recorded attempt's id, number and outcome. The ids
   * come twice more, as the list both reads of {@code outbox.outbox} look up by primary key: joined
   * to the unnested input alone, PostgreSQL may plan a scan of every waiting row, or of the whole
   * table, per batch (a plan cached while the statistics said "few rows" read millions of tuples a
   * second under a backlog). The destinations come once more for the same reason: statistics taken
   * when no row was in flight make the per-destination lease index (V6: {@code (kind, id)} over
   * waiting rows) look empty, and without the kinds the update scanned all of it (5,100 entries for
   * 50 completions in {@code CompletionPlanTest}); with them it reads the batch's entries only.
   */
  static final String SQL_COMPLETE =
      """
      WITH input AS (
          SELECT * FROM unnest(?::bigint[], ?::int[], ?::text[], ?::text[], ?::int[], ?::bigint[],
                               ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[],
                               ?::boolean[], ?::text[], ?::bigint[])
                 AS i(id, attempt, relay_id, outcome, http_status, retry_ms,
                      row_error, attempt_error, started_at, finished_at, trace_parent,
                      counted, destination, lease_until)),
      done AS (
          UPDATE outbox.outbox o
             SET status = CASE i.outcome WHEN 'delivered' THEN 'delivered'
                                         WHEN 'dead' THEN 'dead' ELSE 'pending' END,
                 delivered_at = CASE WHEN i.outcome = 'delivered' THEN now() ELSE o.delivered_at END,
                 available_at = CASE i.outcome
                                  WHEN 'retry' THEN now() + i.retry_ms * interval '1 millisecond'
                                  WHEN 'released' THEN now()
                                  ELSE o.available_at END,
                 lease_owner = NULL, lease_until = NULL,
                 last_http_status = CASE WHEN i.outcome = 'released' THEN o.last_http_status
                                         ELSE i.http_status END,
                 last_error = i.row_error,
                 attempts_at_retry = CASE WHEN i.counted THEN o.attempts_at_retry
                                          ELSE o.attempts_at_retry + 1 END
            FROM input i
           WHERE o.id = ANY (?::bigint[]) AND o.kind = ANY (?::text[]) AND o.id = i.id
             AND o.lease_owner = i.relay_id AND o.attempts = i.attempt
             AND o.lease_until = timestamptz 'epoch' + i.lease_until * interval '1 microsecond'
             AND o.status = 'in_flight'
          RETURNING o.id, o.attempts)
      INSERT INTO outbox.outbox_attempts
             (outbox_id, attempt, relay_id, started_at, finished_at, outcome, http_status, error,
              trace_parent, destination)
      SELECT i.id, i.attempt, i.relay_id,
             timestamptz 'epoch' + i.started_at * interval '1 microsecond',
             timestamptz 'epoch' + i.finished_at * interval '1 microsecond',
             CASE WHEN d.id IS NULL THEN 'lease_lost' ELSE i.outcome END, i.http_status,
             i.attempt_error, i.trace_parent, i.destination
        FROM input i LEFT JOIN done d ON d.id = i.id AND d.attempts = i.attempt
       WHERE EXISTS (SELECT 1 FROM outbox.outbox x WHERE x.id = ANY (?::bigint[]) AND x.id = i.id)
      RETURNING outbox_id, attempt, outcome
      """;

  /** The outcomes a completion writes; a lost lease is what the fence finds, never an input. */
  private static final Set<Outcome> WRITABLE =
      EnumSet.of(Outcome.DELIVERED, Outcome.RETRY, Outcome.DEAD, Outcome.RELEASED);

  private final Jdbc jdbc;

  public CompletionRepository(DataSource dataSource) {
    this.jdbc = new Jdbc(dataSource);
  }

  /**
   * Writes a batch of completions in one statement, each fenced by id, lease owner and attempt, and
   * records every attempt. Returns, per completion, whether its fence held.
   */
  public boolean[] complete(List<Completion> completions) {
    int n = completions.size();
    Long[] ids = new Long[n];
    Integer[] attempts = new Integer[n];
    String[] relays = new String[n];
    String[] outcomes = new String[n];
    Integer[] statuses = new Integer[n];
    Long[] retryMillis = new Long[n];
    String[] rowErrors = new String[n];
    String[] attemptErrors = new String[n];
    Long[] started = new Long[n];
    Long[] finished = new Long[n];
    String[] traceParents = new String[n];
    Boolean[] counted = new Boolean[n];
    String[] destinations = new String[n];
    Long[] leaseEnds = new Long[n];
    for (int i = 0; i < n; i++) {
      Completion c = completions.get(i);
      if (!WRITABLE.contains(c.outcome())) {
        throw new IllegalArgumentException("not a completion: " + c.outcome());
      }
      ids[i] = c.row().id();
      attempts[i] = c.row().attempt();
      relays[i] = c.relayId();
      outcomes[i] = c.outcome().value();
      statuses[i] = c.httpStatus();
      retryMillis[i] = c.retryIn().toMillis(); // bounded by Completions
      rowErrors[i] = c.rowError();
      attemptErrors[i] = c.attemptError();
      started[i] = epochMicros(c.startedAt());
      finished[i] = epochMicros(c.finishedAt());
      traceParents[i] = c.traceParent();
      counted[i] = c.counted();
      destinations[i] = c.row().kind();
      leaseEnds[i] = c.row().leaseUntil() == null ? null : epochMicros(c.row().leaseUntil());
    }
    return jdbc.inTransaction(
        connection -> {
          Map<Long, Map<Integer, Boolean>> recorded = new HashMap<>();
          try (PreparedStatement statement = connection.prepareStatement(SQL_COMPLETE)) {
            statement.setArray(1, connection.createArrayOf("int8", ids));
            statement.setArray(2, connection.createArrayOf("int4", attempts));
            statement.setArray(3, connection.createArrayOf("text", relays));
            statement.setArray(4, connection.createArrayOf("text", outcomes));
            statement.setArray(5, connection.createArrayOf("int4", statuses));
            statement.setArray(6, connection.createArrayOf("int8", retryMillis));
            statement.setArray(7, connection.createArrayOf("text", rowErrors));
            statement.setArray(8, connection.createArrayOf("text", attemptErrors));
            statement.setArray(9, connection.createArrayOf("int8", started));
            statement.setArray(10, connection.createArrayOf("int8", finished));
            statement.setArray(11, connection.createArrayOf("text", traceParents));
            statement.setArray(12, connection.createArrayOf("bool", counted));
            statement.setArray(13, connection.createArrayOf("text", destinations));
            statement.setArray(14, connection.createArrayOf("int8", leaseEnds));
            Array idList = connection.createArrayOf("int8", ids);
            statement.setArray(15, idList);
            statement.setArray(16, connection.createArrayOf("text", destinations));
            statement.setArray(17, idList);
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                recorded
                    .computeIfAbsent(rs.getLong(1), id -> new HashMap<>())
                    .put(rs.getInt(2), !Outcome.LEASE_LOST.value().equals(rs.getString(3)));
              }
            }
          }
          boolean[] held = new boolean[n];
          for (int i = 0; i < n; i++) {
            held[i] = recorded.getOrDefault(ids[i], Map.of()).getOrDefault(attempts[i], false);
          }
          return held;
        });
  }

  private static long epochMicros(Instant instant) {
    return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
  }
}
