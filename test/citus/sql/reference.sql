-- Reference tables (a copy on every node) with xid, xid[] and xidrange
-- columns, joined to the distributed events on the shards.
SET citus.next_shard_id = 4000;
CREATE TABLE kinds (
    kind     int PRIMARY KEY,
    first_id public.xid NOT NULL,
    some_ids public.xid[] NOT NULL,
    span     public.xidrange NOT NULL);
SELECT create_reference_table('kinds');
INSERT INTO kinds
SELECT kind, min(id), (array_agg(id ORDER BY id))[1:3],
       public.xidrange(min(id), max(id), '[]')
FROM events GROUP BY kind;
CREATE TABLE flagged (id public.xid PRIMARY KEY, why text NOT NULL);
SELECT create_reference_table('flagged');
INSERT INTO flagged SELECT id, 'flag ' || payload FROM events WHERE payload LIKE 'e%00';
-- the same rows on all three nodes
SELECT r.success, r.result, count(*) AS nodes
FROM run_command_on_all_nodes($$SELECT count(*) || ' ' || min(id) || ' ' || max(id) FROM public.flagged$$) r
GROUP BY 1, 2;
SELECT count(*) AS nodes FROM run_command_on_all_nodes($$SELECT 1 FROM public.kinds
    WHERE kind = 3 AND some_ids[1] = first_id AND first_id <@ span$$) WHERE result = '1';
-- joined on the shards: by the xid key, and by a range of each kind
SELECT count(*), min(f.why), max(e.payload) FROM events e JOIN flagged f USING (id);
EXPLAIN (COSTS OFF) SELECT e.payload, f.why FROM events e JOIN flagged f USING (id);
SELECT k.kind, count(*) FROM events e JOIN kinds k ON e.id <@ k.span AND e.kind = k.kind
GROUP BY k.kind ORDER BY k.kind;
SELECT e.payload FROM events e JOIN kinds k ON e.id = ANY (k.some_ids) WHERE k.kind = 4 ORDER BY e.id;
-- a router query over a reference table: one node
EXPLAIN (COSTS OFF) SELECT why FROM flagged WHERE id ^@ '4jU';
SELECT count(*) FROM flagged WHERE id ^@ '4jU';
