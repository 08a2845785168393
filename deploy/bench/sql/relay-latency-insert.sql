-- Relay benchmark, steady stream (pgbench --rate, -D rows=N): N outbox rows per transaction, so
-- that every commit fires the outbox NOTIFY trigger once, like a consumer's group commit does.
-- One row per commit cannot reach half a drain's rate here: PostgreSQL serializes notifying
-- commits (measured: 1,460 single-row commits/s with the trigger, 4,060 without).
-- (No ':name' inside literals: pgbench would take it for a variable.)
INSERT INTO outbox.outbox (kind, payload, idempotency_key, source_consumer)
SELECT 'send_receipt',
       jsonb_build_object('to', 'latency@example.com', 'template', 'order-receipt',
                          'orderId', 'ord-lat-' || u, 'customerId', 'cust-' || :client_id,
                          'totalCents', 4200, 'currency', 'EUR'),
       concat_ws(':', 'oo1', 'send_receipt', 'relaybench', 'lat-' || u), 'relaybench-latency'
  FROM (SELECT gen_random_uuid()::text AS u FROM generate_series(1, :rows)) k;
