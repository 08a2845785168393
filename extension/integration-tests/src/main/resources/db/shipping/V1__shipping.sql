-- The shipping service's own table; the platform's tables live in schema "onceonly".
CREATE TABLE shipments (
    order_id      text        PRIMARY KEY,
    customer_id   text        NOT NULL,
    weight_grams  bigint      NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
