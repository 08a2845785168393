-- The outbox is a queue: each row is inserted, updated two or more times, then left delivered.
-- Every delivered row leaves dead entries at the low end of the partial lease indexes until VACUUM
-- removes them, and every lease walks past them: measured here, after a burst of 70,000 deliveries
-- one lease took 4.5 ms (650 buffers) instead of 0.1 ms, until the table was vacuumed. So vacuum it
-- after a few thousand changed rows, not after 20 % of the table (the default), and analyze it as
-- often: the planner must keep choosing the lease index.
ALTER TABLE outbox SET (
    autovacuum_vacuum_scale_factor = 0,
    autovacuum_vacuum_threshold = 5000,
    autovacuum_analyze_scale_factor = 0,
    autovacuum_analyze_threshold = 5000
);
