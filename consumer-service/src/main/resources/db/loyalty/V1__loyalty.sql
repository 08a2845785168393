-- Business tables of consumer-service, schema "loyalty" (its own Flyway history).

-- One claim per (consumer, message key): the claim and the effect commit together.
CREATE TABLE processed_messages (
    consumer        text        NOT NULL,
    message_key     text        NOT NULL,
    payload_sha256  char(64)    NOT NULL,
    event_date      date        NOT NULL,
    processed_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_key)
);
-- Retention deletes by age in small batches.
CREATE INDEX processed_messages_processed_at_idx ON processed_messages (processed_at);

-- Same key, different payload: quarantined, never applied.
CREATE TABLE message_conflicts (
    id               bigserial   PRIMARY KEY,
    consumer         text        NOT NULL,
    message_key      text        NOT NULL,
    stored_sha256    char(64)    NOT NULL,
    received_sha256  char(64)    NOT NULL,
    payload          text        NOT NULL,
    detected_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX message_conflicts_key_idx ON message_conflicts (consumer, message_key);

-- Messages decided without an effect: insufficient balance, older than the claim window.
CREATE TABLE rejections (
    id           bigserial   PRIMARY KEY,
    consumer     text        NOT NULL,
    message_key  text        NOT NULL,
    reason       text        NOT NULL,
    detail       text        NOT NULL,
    rejected_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (consumer, message_key)
);

CREATE TABLE balances (
    customer_id  text        PRIMARY KEY,
    points       bigint      NOT NULL CHECK (points >= 0),
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Natural keys never expire: one credit per order, one debit per redemption, whatever the claims.
CREATE TABLE point_ledger (
    id             bigserial   PRIMARY KEY,
    customer_id    text        NOT NULL,
    order_id       text        UNIQUE,
    redemption_id  text        UNIQUE,
    points         bigint      NOT NULL,
    event_id       uuid        NOT NULL,
    message_key    text        NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    CHECK ((order_id IS NULL) <> (redemption_id IS NULL))
);
CREATE INDEX point_ledger_customer_idx ON point_ledger (customer_id, id);

CREATE TABLE customer_profiles (
    customer_id  text        PRIMARY KEY,
    version      bigint      NOT NULL,
    tier         text        NOT NULL,
    email        text        NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now()
);
