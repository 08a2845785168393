-- Destinations (docs/destinations.md): outbox.kind names where a row goes, and the relay leases
-- each destination's due rows as far as that destination's own capacity goes (outbox-relay
-- README, "How it works"), so one destination's backlog never sits in front of another's.

-- Each destination's waiting rows in id order. Measured on PostgreSQL 15: a lease of 50 receipts
-- behind 100,000 waiting payouts read all of them through outbox_lease_order_idx (41 to 83 ms);
-- through this index, 0.2 ms. Inserting 20,000 rows into a table of 220,000 took 123 ms more with
-- it (median of 11, alternated: 837 → 960 ms), 6 µs a row against a claim transaction of about
-- 4.7 ms. Creating it reads the waiting rows only, but holds back the writer's inserts meanwhile.
CREATE INDEX outbox_lease_destination_idx ON outbox (kind, id)
    WHERE status IN ('pending', 'in_flight');

-- The destination of each attempt, so that attempts per destination over time (the console's
-- chart, /outbox/stats) need no join to outbox; null for attempts recorded before this version.
-- No default, so adding it rewrites nothing.
ALTER TABLE outbox_attempts ADD COLUMN destination text;

-- Attempts of a time window (the last hour): they are appended in finished_at order, so a BRIN
-- index finds them reading a few pages, and costs the relay's completion writes next to nothing.
CREATE INDEX outbox_attempts_finished_at_idx ON outbox_attempts USING brin (finished_at);
