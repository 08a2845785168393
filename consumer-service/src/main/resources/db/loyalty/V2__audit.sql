-- Every change made through consumer-service's REST API: who, when, what, on which filter, how many.
CREATE TABLE audit_log (
    id            bigserial   PRIMARY KEY,
    actor         text        NOT NULL,
    action        text        NOT NULL,
    target        text        NOT NULL,
    filter        text,
    affected      integer     NOT NULL,
    at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
