-- Relay benchmark: :rows due send_receipt rows in outbox.outbox, shaped like the rows
-- consumer-service's receipts consumer writes (same payload fields, unique idempotency keys).
-- psql -v rows=50000 -v prefix=drain-1 -f relay-prefill.sql
INSERT INTO outbox.outbox (kind, payload, idempotency_key, source_consumer, source_message_key)
SELECT 'send_receipt',
       jsonb_build_object(
           'to', 'cust-' || lpad((g % 10000)::text, 5, '0') || '@example.com',
           'template', 'order-receipt',
           'orderId', 'ord-' || :'prefix' || '-' || g,
           'customerId', 'cust-' || lpad((g % 10000)::text, 5, '0'),
           'totalCents', 1000 + (g * 37) % 50000,
           'currency', 'EUR'),
       'oo1:send_receipt:relaybench:' || :'prefix' || '-' || g,
       'relaybench-' || :'prefix',
       'order-completed:ord-' || :'prefix' || '-' || g
  FROM generate_series(1, :rows) g;
ANALYZE outbox.outbox;
