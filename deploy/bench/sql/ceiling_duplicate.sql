-- The PostgreSQL ceiling for a duplicate: the claim conflicts with one of the keys that
-- ceiling_setup.sql pre-loaded, then the stored fingerprint is read (same payload -> duplicate),
-- as ClaimRepository does; nothing is written, so the commit has no WAL to flush. Keys are built
-- with concat_ws(':', ...): pgbench takes any ":name", even inside a quoted literal, for a variable.
\set k random(1, 20000)
\set claimed 0
BEGIN;
INSERT INTO onceonly.processed_messages (consumer, message_key, payload_sha256, event_date)
VALUES ('loyalty', concat_ws(':', 'order-completed', 'pgdup-' || :k::text),
        md5('dup-' || :k::text) || md5(:k::text || '-dup'), current_date)
ON CONFLICT DO NOTHING
RETURNING 1 AS claimed \aset
SELECT consumer, message_key, payload_sha256, event_date, processed_at
  FROM onceonly.processed_messages
 WHERE consumer = 'loyalty' AND message_key = concat_ws(':', 'order-completed', 'pgdup-' || :k::text);
COMMIT;
