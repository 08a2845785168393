-- Claims, conflicts, rejections and the operator audit belong to the OnceOnly platform now (the
-- Quarkus extension, schema "onceonly", its own Flyway history); consumer-service keeps only the
-- loyalty tables. This moves what an earlier release stored here, whichever history runs first:
--   * the platform's history ran first (it created empty tables in "onceonly"): the rows are
--     copied there, claims of the days the platform keeps partitions for, and the old tables go;
--   * this runs first: the tables move as they are, partitions included, and the platform's first
--     migration adopts them (it creates only what is missing).
-- Claims older than the platform's partitions are not copied: they are beyond the claim window,
-- where the ledger's natural keys and the outbox keys decide (ARCHITECTURE.md §9).
DO $$
DECLARE
    part record;
BEGIN
    IF to_regclass('onceonly.processed_messages') IS NULL THEN
        CREATE SCHEMA IF NOT EXISTS onceonly;
        FOR part IN
            SELECT c.relname FROM pg_inherits i
              JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = 'loyalty.processed_messages'::regclass
        LOOP
            EXECUTE format('ALTER TABLE loyalty.%I SET SCHEMA onceonly', part.relname);
        END LOOP;
        ALTER TABLE loyalty.processed_messages SET SCHEMA onceonly;
        ALTER TABLE loyalty.message_conflicts SET SCHEMA onceonly;
        ALTER TABLE loyalty.rejections SET SCHEMA onceonly;
        ALTER TABLE loyalty.audit_log SET SCHEMA onceonly;
    ELSE
        INSERT INTO onceonly.processed_messages
               (consumer, message_key, payload_sha256, event_date, processed_at)
        SELECT p.consumer, p.message_key, p.payload_sha256, p.event_date, p.processed_at
          FROM loyalty.processed_messages p
         WHERE p.event_date >= (SELECT min(substring(c.relname FROM 21)::date)
                                  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                                 WHERE i.inhparent = 'onceonly.processed_messages'::regclass)
           AND p.event_date <= (SELECT max(substring(c.relname FROM 21)::date)
                                  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                                 WHERE i.inhparent = 'onceonly.processed_messages'::regclass)
        ON CONFLICT DO NOTHING;
        INSERT INTO onceonly.message_conflicts
               (consumer, message_key, stored_sha256, received_sha256, payload, detected_at)
        SELECT consumer, message_key, stored_sha256, received_sha256, payload, detected_at
          FROM loyalty.message_conflicts;
        INSERT INTO onceonly.rejections (consumer, message_key, reason, detail, rejected_at)
        SELECT consumer, message_key, reason, detail, rejected_at FROM loyalty.rejections
        ON CONFLICT DO NOTHING;
        INSERT INTO onceonly.audit_log (actor, action, target, filter, affected, at)
        SELECT actor, action, target, filter, affected, at FROM loyalty.audit_log;
        DROP TABLE loyalty.processed_messages;
        DROP TABLE loyalty.message_conflicts;
        DROP TABLE loyalty.rejections;
        DROP TABLE loyalty.audit_log;
    END IF;
END;
$$;
