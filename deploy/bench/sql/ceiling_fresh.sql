-- The PostgreSQL ceiling for the consumer's work on a fresh OrderCompleted, as one transaction:
-- claim (INSERT ... ON CONFLICT DO NOTHING RETURNING), ledger credit with its balance upsert (one
-- statement), outbox row with its idempotency key taken in outbox_keys (one statement).
-- Same tables, indexes and trigger as the service (the script loads its Flyway migrations), same
-- statements as ClaimRepository, LedgerRepository (SQL_CREDIT) and OutboxWriter (SQL_INSERT).
-- The outbox row carries a W3C traceparent, as every row the service writes does (tracing on or
-- off), so the trace index takes its entry. Needs -D run=<0..999> -D seq=0; pgbench keeps a
-- client's variables between transactions, so the order id is unique.
-- Keys are built with concat_ws(':', ...) because pgbench takes any ":name", even inside a quoted
-- literal, for one of its variables.
\set seq :seq + 1
\set id :run * 1000000000000 + :client_id * 1000000000 + :seq
\set cust random(0, 9999)
\set cents random(500, 20499)
\set claimed 0
BEGIN;
INSERT INTO onceonly.processed_messages (consumer, message_key, payload_sha256, event_date)
VALUES ('loyalty', concat_ws(':', 'order-completed', 'pgb-' || :id::text),
        md5(:id::text) || md5('sha-' || :id::text), current_date)
ON CONFLICT DO NOTHING
RETURNING 1 AS claimed \aset
\if :claimed
WITH credited AS (
    INSERT INTO loyalty.point_ledger (customer_id, order_id, points, event_id, message_key)
    VALUES ('cust-' || :cust::text, 'pgb-' || :id::text, :cents::int / 100, gen_random_uuid(),
            concat_ws(':', 'order-completed', 'pgb-' || :id::text))
    ON CONFLICT (order_id) DO NOTHING
    RETURNING customer_id, points)
INSERT INTO loyalty.balances (customer_id, points)
SELECT customer_id, points FROM credited
ON CONFLICT (customer_id)
DO UPDATE SET points = balances.points + EXCLUDED.points, updated_at = now();
WITH taken AS (
    INSERT INTO outbox.outbox_keys (idempotency_key)
    VALUES (concat_ws(':', 'oo1', 'send_receipt', 'receipts', 'order-completed', 'pgb-' || :id::text))
    ON CONFLICT DO NOTHING
    RETURNING idempotency_key)
INSERT INTO outbox.outbox
       (kind, payload, idempotency_key, ordering_key, source_consumer, source_message_key,
        trace_parent, available_at)
SELECT 'send_receipt',
       jsonb_build_object('to', 'cust-' || :cust::text || '@bench.example',
                          'template', 'order-receipt', 'orderId', 'pgb-' || :id::text,
                          'customerId', 'cust-' || :cust::text, 'totalCents', :cents::int,
                          'currency', 'EUR'),
       idempotency_key, NULL, 'receipts', concat_ws(':', 'order-completed', 'pgb-' || :id::text),
       concat_ws('-', '00', md5('trace-' || :id::text), left(md5('span-' || :id::text), 16), '01'),
       now()
  FROM taken
ON CONFLICT (idempotency_key) DO NOTHING;
\endif
COMMIT;
