-- Operator changes must survive a crash once acknowledged: the relay's delivery loop commits with
-- synchronous_commit = off (a lost completion is only sent again with the same key), but a lost
-- cancel could bring a row back and send a payout. Operator transactions therefore set it back to
-- on, and each audit row records the commit mode its transaction was written with.
ALTER TABLE outbox_audit
    ADD COLUMN commit_mode text NOT NULL DEFAULT current_setting('synchronous_commit');
