-- Relay benchmark, steady stream (pgbench --rate): one outbox row per transaction, committed on
-- its own, so every commit fires the outbox NOTIFY trigger like a consumer transaction does.
-- (No ':name' inside literals: pgbench would take it for a variable.)
INSERT INTO outbox.outbox (kind, payload, idempotency_key, source_consumer)
SELECT 'send_receipt',
       jsonb_build_object('to', 'latency@example.com', 'template', 'order-receipt',
                          'orderId', 'ord-lat-' || u, 'customerId', 'cust-' || :client_id,
                          'totalCents', 4200, 'currency', 'EUR'),
       concat_ws(':', 'oo1', 'send_receipt', 'relaybench', 'lat-' || u), 'relaybench-latency'
  FROM (SELECT gen_random_uuid()::text AS u) k;
