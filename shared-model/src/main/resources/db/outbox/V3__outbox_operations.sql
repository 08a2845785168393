-- Operating the outbox over the relay's REST API (issue 4).

-- An operator retry gives a dead row a fresh attempt budget while "attempts" stays monotonic (the
-- completion fence relies on it): the relay counts the budget from the attempts at the last retry.
ALTER TABLE outbox ADD COLUMN attempts_at_retry integer NOT NULL DEFAULT 0
    CHECK (attempts_at_retry >= 0);
-- When an operator cancelled the row; retention keeps cancelled rows for its window from here.
ALTER TABLE outbox ADD COLUMN cancelled_at timestamptz;
-- "Deliveries in the last minute" and retention of delivered rows, without scanning all of them.
CREATE INDEX outbox_delivered_at_idx ON outbox (delivered_at) WHERE status = 'delivered';

-- Every change an operator makes through the API (and every dry run), written in the same
-- transaction as the change. No foreign key: retention removes outbox rows, the audit stays.
CREATE TABLE outbox_audit (
    id              bigserial   PRIMARY KEY,
    actor           text        NOT NULL,
    action          text        NOT NULL CHECK (action IN ('retry', 'cancel', 'replay')),
    target_id       bigint,
    filter          jsonb,
    affected_count  integer     NOT NULL CHECK (affected_count >= 0),
    dry_run         boolean     NOT NULL DEFAULT false,
    at              timestamptz NOT NULL DEFAULT now(),
    -- replay: when the last row it moved becomes due; the next replay starts after it
    scheduled_until timestamptz
);
CREATE INDEX outbox_audit_scheduled_idx ON outbox_audit (scheduled_until)
    WHERE scheduled_until IS NOT NULL;
