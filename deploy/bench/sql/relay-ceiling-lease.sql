-- Relay benchmark, SQL-only drain ceiling (pgbench, -D batch=10): what outbox-relay's database
-- work would cost with an infinitely fast provider. One transaction = lease a batch of due rows
-- with FOR UPDATE SKIP LOCKED (reading what a call needs) + mark them delivered. No HTTP.
BEGIN;
WITH leased AS (
    UPDATE outbox.outbox
       SET status = 'in_flight', lease_owner = 'pgbench', lease_until = now() + interval '60 seconds',
           attempts = attempts + 1
     WHERE id IN (SELECT id FROM outbox.outbox
                   WHERE status = 'pending' AND available_at <= now()
                   ORDER BY id LIMIT :batch FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, payload, idempotency_key)
SELECT coalesce(array_agg(id), '{}') AS ids, count(*) AS leased,
       coalesce(sum(octet_length(payload::text)), 0) AS bytes
  FROM leased \gset
UPDATE outbox.outbox
   SET status = 'delivered', delivered_at = now(), lease_owner = NULL, lease_until = NULL
 WHERE id = ANY (:ids::bigint[]) AND status = 'in_flight' AND lease_owner = 'pgbench';
COMMIT;
