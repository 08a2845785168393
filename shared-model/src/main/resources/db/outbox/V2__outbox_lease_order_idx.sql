-- The relay leases "ORDER BY id" among pending and in-flight rows (DESIGN §5.1). Without this index
-- the lease scans past every delivered row at the front of the primary key; with it, the scan
-- starts at the oldest undelivered row and usually stops after the batch size.
CREATE INDEX outbox_lease_order_idx ON outbox (id) WHERE status IN ('pending', 'in_flight');
