-- Outbox idempotency keys outlive their rows (issue 12). Delivered rows and their attempts go after
-- the relay's retention window (7 days by default), but a message replayed weeks later must still
-- find its key taken, or it would queue a second receipt. The key is taken here, in the writer's
-- transaction, before the row is inserted; the relay removes keys only after
-- relay.retention.key-window (400 days by default), longer than the claim window plus the longest
-- replay consumer-service accepts.
CREATE TABLE outbox_keys (
    idempotency_key varchar(255) PRIMARY KEY,
    created_at      timestamptz  NOT NULL DEFAULT now()
);
-- Key retention deletes the oldest keys first.
CREATE INDEX outbox_keys_created_at_idx ON outbox_keys (created_at);

INSERT INTO outbox_keys (idempotency_key, created_at)
SELECT idempotency_key, created_at FROM outbox
ON CONFLICT DO NOTHING;
