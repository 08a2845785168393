-- Data-over-time benchmark (data-bench.sh): :finished_rows finished send_receipt rows, delivered :'age'
-- ago, each with the attempt that delivered it and its key in outbox.outbox_keys, shaped like the
-- rows the receipts consumer writes and the relay completes. Aged beyond relay.retention.window
-- (7 days), the relay's retention job removes them; younger, they only sit in the table. Their
-- delivery times spread over the day before :'age'.
-- psql -v finished_rows=1000000 -v prefix=done-1 -v age='8 days' -f outbox-finished.sql
INSERT INTO outbox.outbox_keys (idempotency_key, created_at)
SELECT 'oo1:send_receipt:databench:' || :'prefix' || '-' || g, now() - :'age'::interval - interval '1 minute'
  FROM generate_series(1, :finished_rows) g;
WITH finished AS (
  INSERT INTO outbox.outbox (kind, payload, idempotency_key, source_consumer, source_message_key,
                             status, attempts, available_at, created_at, delivered_at, last_http_status)
  SELECT 'send_receipt',
         jsonb_build_object(
             'to', 'cust-' || lpad((g % 10000)::text, 5, '0') || '@example.com',
             'template', 'order-receipt',
             'orderId', 'ord-' || :'prefix' || '-' || g,
             'customerId', 'cust-' || lpad((g % 10000)::text, 5, '0'),
             'totalCents', 1000 + (g * 37) % 50000,
             'currency', 'EUR'),
         'oo1:send_receipt:databench:' || :'prefix' || '-' || g,
         'databench-' || :'prefix',
         'order-completed:ord-' || :'prefix' || '-' || g,
         'delivered', 1, t.done - interval '1 minute', t.done - interval '1 minute', t.done, 200
    FROM generate_series(1, :finished_rows) g,
         LATERAL (SELECT now() - :'age'::interval - (g % 86400) * interval '1 second' AS done) t
  RETURNING id, delivered_at)
INSERT INTO outbox.outbox_attempts (outbox_id, attempt, relay_id, started_at, finished_at, outcome, http_status)
SELECT id, 1, 'databench', delivered_at - interval '20 milliseconds', delivered_at, 'delivered', 200
  FROM finished;
