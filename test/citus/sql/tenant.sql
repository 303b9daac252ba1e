-- Tenant-style distribution: the tenant is the distribution column, the id
-- the second column of the primary key.  A tenant's query is a router
-- query, and the shard's primary key answers its conditions on the id.
SET citus.next_shard_id = 7000;
SET citus.shard_count = 8;
CREATE TABLE tenant_events (
    tenant_id bigint NOT NULL,
    id        public.xid NOT NULL DEFAULT public.xid_new(),
    v         int NOT NULL,
    PRIMARY KEY (tenant_id, id));
SELECT create_distributed_table('tenant_events', 'tenant_id');
INSERT INTO tenant_events
SELECT t, (public.xid_time_lower_bound('2024-01-01+00'::timestamptz + g * interval '5 minutes', true)::bigint + t)::public.xid, g
FROM generate_series(1, 20) AS t, generate_series(0, 1999) AS g;
ANALYZE tenant_events;
SELECT substr(id::text, 1, 4) AS p4 FROM tenant_events WHERE tenant_id = 7 AND v = 1000 \gset
SELECT count(*), min(v), max(v) FROM tenant_events WHERE tenant_id = 7 AND id ^@ :'p4';
EXPLAIN (COSTS OFF) SELECT * FROM tenant_events WHERE tenant_id = 7 AND id ^@ :'p4';
SELECT count(*) FROM tenant_events
WHERE tenant_id = 7 AND id >= '2024-01-02+00'::timestamptz AND id < '2024-01-02 06:00+00'::timestamptz;
EXPLAIN (COSTS OFF) SELECT * FROM tenant_events
WHERE tenant_id = 7 AND id >= '2024-01-02+00'::timestamptz AND id < '2024-01-02 06:00+00'::timestamptz;
-- the newest of a tenant, and its last day
INSERT INTO tenant_events (tenant_id, v) VALUES (7, -1), (7, -2);
SELECT v FROM tenant_events WHERE tenant_id = 7 ORDER BY id DESC LIMIT 2;
EXPLAIN (COSTS OFF) SELECT v FROM tenant_events WHERE tenant_id = 7 ORDER BY id DESC LIMIT 2;
SELECT count(*) FROM tenant_events WHERE tenant_id = 7 AND id >= now() - interval '1 day';
EXPLAIN (COSTS OFF) SELECT count(*) FROM tenant_events WHERE tenant_id = 7 AND id >= now() - interval '1 day';
-- without the tenant: every shard, still through the index
SELECT count(*) FROM tenant_events WHERE id ^@ :'p4';
-- one id is unique per tenant only: the same id in two tenants is allowed
INSERT INTO tenant_events (tenant_id, id, v)
SELECT 8, id, 0 FROM tenant_events WHERE tenant_id = 7 AND v = -1;
SELECT count(DISTINCT tenant_id) FROM tenant_events
WHERE id = (SELECT id FROM tenant_events WHERE tenant_id = 7 AND v = -1);
