-- Data-over-time benchmark (data-bench.sh): one batch of a typical batched delete of one day's
-- claims, :batch rows per transaction, through the parent table as an application would write it
-- (the day in the outer WHERE too, so that the plan touches that day's partition only).
-- EXPLAIN (ANALYZE, WAL) runs the delete and reports the WAL it wrote; data-bench.sh repeats this
-- file, one transaction per batch, until a batch deletes fewer than :batch rows.
EXPLAIN (ANALYZE, WAL, COSTS OFF, TIMING OFF, FORMAT JSON)
DELETE FROM onceonly.processed_messages
 WHERE event_date = :'day'
   AND (consumer, message_key, event_date) IN (
       SELECT consumer, message_key, event_date
         FROM onceonly.processed_messages
        WHERE event_date = :'day'
        LIMIT :batch);
