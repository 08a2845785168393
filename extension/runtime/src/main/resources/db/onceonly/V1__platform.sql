-- The platform's own tables (the extension's Flyway history flyway_onceonly_history, in the schema
-- quarkus.onceonly.schema, "onceonly" by default; Flyway runs this with that schema first on the
-- search path). Written so that it also adopts tables a service moved here from an older layout
-- (IF NOT EXISTS everywhere): see docs/extension.md, "Moving from consumer-service 0.1".

-- Claims: one per (consumer, message key, event day), committed with the effect. Partitioned by
-- the event's UTC day, one partition a day: retention drops whole days, so the table's cost stays
-- flat as it grows. Every exact copy carries the same date and meets the first claim in its day's
-- partition; a copy dated another day is another payload, caught by the effect's natural key.
CREATE TABLE IF NOT EXISTS processed_messages (
    consumer        text        NOT NULL,
    message_key     text        NOT NULL,
    payload_sha256  char(64)    NOT NULL,
    event_date      date        NOT NULL,
    processed_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_key, event_date)
) PARTITION BY RANGE (event_date);

-- The days around today, so that the service can start at once; the service keeps partitions
-- ready from then on (processed_messages_pYYYYMMDD).
DO $$
DECLARE
    d date;
BEGIN
    FOR d IN
        SELECT generate_series((now() AT TIME ZONE 'UTC')::date - 31,
                               (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day')::date
    LOOP
        IF to_regclass(format('%I.%I', current_schema(), 'processed_messages_p' || to_char(d, 'YYYYMMDD'))) IS NULL THEN
            EXECUTE format(
                'CREATE TABLE %I PARTITION OF processed_messages FOR VALUES FROM (%L) TO (%L)',
                'processed_messages_p' || to_char(d, 'YYYYMMDD'), d, d + 1);
        END IF;
    END LOOP;
END;
$$;

-- Same key, different payload: quarantined, never applied.
CREATE TABLE IF NOT EXISTS message_conflicts (
    id               bigserial   PRIMARY KEY,
    consumer         text        NOT NULL,
    message_key      text        NOT NULL,
    stored_sha256    char(64)    NOT NULL,
    received_sha256  char(64)    NOT NULL,
    payload          text        NOT NULL,
    detected_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS message_conflicts_key_idx ON message_conflicts (consumer, message_key);

-- Messages decided without an effect: by a handler (its reason), or by their date (future, stale).
CREATE TABLE IF NOT EXISTS rejections (
    id           bigserial   PRIMARY KEY,
    consumer     text        NOT NULL,
    message_key  text        NOT NULL,
    reason       text        NOT NULL,
    detail       text        NOT NULL,
    rejected_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (consumer, message_key)
);

-- Every change made through the operator API: who, when, what, on which filter, how many.
CREATE TABLE IF NOT EXISTS audit_log (
    id            bigserial   PRIMARY KEY,
    actor         text        NOT NULL,
    action        text        NOT NULL,
    target        text        NOT NULL,
    filter        text,
    affected      integer     NOT NULL,
    at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS audit_log_at_idx ON audit_log (at DESC);
