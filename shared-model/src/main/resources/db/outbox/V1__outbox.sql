-- The transactional outbox: the contract between the consumer (writer) and the relay (reader).
-- Owned by shared-model; migrated by consumer-service into schema "outbox" with its own history.

CREATE TABLE outbox (
    id                 bigserial    PRIMARY KEY,
    kind               text         NOT NULL,
    payload            jsonb        NOT NULL,
    idempotency_key    varchar(255) NOT NULL UNIQUE,
    ordering_key       text,
    status             text         NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'in_flight', 'delivered', 'dead', 'cancelled')),
    attempts           integer      NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    available_at       timestamptz  NOT NULL DEFAULT now(),
    lease_owner        text,
    lease_until        timestamptz,
    created_at         timestamptz  NOT NULL DEFAULT now(),
    delivered_at       timestamptz,
    last_error         text,
    last_http_status   integer,
    source_consumer    text,
    source_message_key text,
    trace_parent       text
);

-- Due pending rows in lease order: keeps the poll cheap whatever the table holds.
CREATE INDEX outbox_due_idx ON outbox (available_at, id) WHERE status = 'pending';
-- Leases to reclaim after a relay died.
CREATE INDEX outbox_lease_idx ON outbox (lease_until) WHERE status = 'in_flight';
-- Per-key ordering: the oldest undelivered row of each key.
CREATE INDEX outbox_ordering_idx ON outbox (ordering_key, id)
    WHERE ordering_key IS NOT NULL AND status IN ('pending', 'in_flight', 'dead');
-- Operator listings and retention.
CREATE INDEX outbox_status_created_idx ON outbox (status, created_at);

CREATE TABLE outbox_attempts (
    id           bigserial   PRIMARY KEY,
    outbox_id    bigint      NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    attempt      integer     NOT NULL,
    relay_id     text        NOT NULL,
    started_at   timestamptz NOT NULL,
    finished_at  timestamptz,
    outcome      text        NOT NULL,
    http_status  integer,
    error        text
);
CREATE INDEX outbox_attempts_outbox_idx ON outbox_attempts (outbox_id, attempt);

-- Wake relays at commit: one notification per statement, delivered only if the writer commits.
CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('outbox', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER outbox_notify_after_insert
    AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();
