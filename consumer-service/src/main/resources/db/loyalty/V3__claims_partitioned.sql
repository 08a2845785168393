-- Claims partitioned by event date (issue 12): retention drops whole days instead of deleting rows,
-- so the table's cost stays flat as it grows and no bloat is left behind.
--
-- event_date is the UTC day of the event's occurredAt, which every copy of a message carries. A
-- copy with the same payload lands in the same partition and meets the first one's primary key; a
-- copy with another date is a different payload (the date is part of it), lands in another
-- partition and is caught by the natural key its effect needs (ledger order_id / redemption_id,
-- the outbox key): the consumer then finds the first claim in its partition and quarantines the
-- copy as a conflict. ARCHITECTURE.md, "Claims over time", has the whole argument.

ALTER TABLE processed_messages RENAME TO processed_messages_unpartitioned;
ALTER TABLE processed_messages_unpartitioned
    RENAME CONSTRAINT processed_messages_pkey TO processed_messages_unpartitioned_pkey;
DROP INDEX processed_messages_processed_at_idx;

CREATE TABLE processed_messages (
    consumer        text        NOT NULL,
    message_key     text        NOT NULL,
    payload_sha256  char(64)    NOT NULL,
    event_date      date        NOT NULL,
    processed_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_key, event_date)
) PARTITION BY RANGE (event_date);

-- One partition per day (processed_messages_pYYYYMMDD). consumer-service creates them ahead and
-- drops them once beyond the claim window (claim.ClaimPartitions); here: every day that existing
-- claims use, and the days around today, so that the service can start at once.
DO $$
DECLARE
    d date;
BEGIN
    FOR d IN
        SELECT DISTINCT event_date FROM processed_messages_unpartitioned
        UNION
        SELECT generate_series((now() AT TIME ZONE 'UTC')::date - 31,
                               (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day')::date
    LOOP
        EXECUTE format(
            'CREATE TABLE processed_messages_p%s PARTITION OF processed_messages'
            || ' FOR VALUES FROM (%L) TO (%L)',
            to_char(d, 'YYYYMMDD'), d, d + 1);
    END LOOP;
END;
$$;

INSERT INTO processed_messages (consumer, message_key, payload_sha256, event_date, processed_at)
SELECT consumer, message_key, payload_sha256, event_date, processed_at
  FROM processed_messages_unpartitioned;

DROP TABLE processed_messages_unpartitioned;
