-- Data-over-time benchmark (data-bench.sh): :claims claims in onceonly.processed_messages, spread
-- evenly over :days days, the oldest :from_day days before today (UTC), half for each consumer
-- (loyalty, receipts: two claims per order, as the service writes them).
-- psql -v claims=10000000 -v days=30 -v from_day=30 -v prefix=pre -f claims-prefill.sql
--
-- First the daily partitions, created as consumer-service creates them
-- (claim.ClaimPartitionRepository.SQL_CREATE): the service only creates days ahead of today.
-- Then one INSERT per day, in key order, so that each partition's primary key grows at its right
-- edge as it would from a day's stream (and the load takes minutes, not an hour).
SELECT set_config('work_mem', '256MB', false);
SELECT format('CREATE TABLE IF NOT EXISTS onceonly.processed_messages_p%s PARTITION OF onceonly.processed_messages'
              ' FOR VALUES FROM (%L) TO (%L)', to_char(d, 'YYYYMMDD'), d, d + 1)
  FROM (SELECT (now() AT TIME ZONE 'UTC')::date - :from_day + i AS d
          FROM generate_series(0, :days - 1) i) days
\gexec
SELECT format($$INSERT INTO onceonly.processed_messages (consumer, message_key, payload_sha256, event_date, processed_at)
SELECT v.consumer, 'order-completed:%s-' || o.n, md5(v.consumer || o.n) || md5(o.n::text), %L::date,
       %L::date + interval '1 hour' + (o.n %% 79200) * interval '1 second'
  FROM generate_series(0, (%s / 2 - 1 - %s) / %s) k,
       LATERAL (SELECT %s + %s * k AS n) o,
       (VALUES ('loyalty'), ('receipts')) v(consumer)
 ORDER BY 1, 2$$, :'prefix', d, d, :claims, i, :days, i, :days)
  FROM (SELECT i, (now() AT TIME ZONE 'UTC')::date - :from_day + i AS d
          FROM generate_series(0, :days - 1) i) days
\gexec
