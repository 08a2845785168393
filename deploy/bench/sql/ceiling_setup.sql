-- Pre-loads the keys that ceiling_duplicate.sql claims again, after the migrations ran.
INSERT INTO onceonly.processed_messages (consumer, message_key, payload_sha256, event_date)
SELECT 'loyalty', concat_ws(':', 'order-completed', 'pgdup-' || g), md5('dup-' || g) || md5(g || '-dup'), current_date
  FROM generate_series(1, 20000) g;
VACUUM ANALYZE;
