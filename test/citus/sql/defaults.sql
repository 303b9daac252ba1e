-- Where DEFAULT xid_new() runs, seen by the node number in the ids
-- (coordinator 1, workers 2 and 3; README "Citus").
SET citus.next_shard_id = 10000;
SET citus.shard_count = 8;
CREATE TABLE origins (
    id    public.xid PRIMARY KEY DEFAULT public.xid_new(),
    via   text NOT NULL,
    other public.xid DEFAULT public.xid_new());
SELECT create_distributed_table('origins', 'id', colocate_with => 'events');
-- through the coordinator: one row, many rows, INSERT ... SELECT, COPY
INSERT INTO origins (via) VALUES ('coordinator: insert');
INSERT INTO origins (via) VALUES ('coordinator: insert'), ('coordinator: insert');
INSERT INTO origins (via) SELECT 'coordinator: insert select' FROM generate_series(1, 100);
\copy origins (via) FROM STDIN
coordinator: copy
coordinator: copy
\.
-- INSERT ... SELECT from a distributed table: the SELECT runs on the
-- workers, and there the defaults are filled
INSERT INTO origins (via) SELECT 'coordinator: insert select from events' FROM events WHERE kind = 1;
-- through each worker (Citus 11 and later: every node routes writes)
\c - - 127.0.0.1 :worker1_port
INSERT INTO origins (via) VALUES ('worker1: insert'), ('worker1: insert');
\copy origins (via) FROM STDIN
worker1: copy
\.
\c - - 127.0.0.1 :worker2_port
INSERT INTO origins (via) VALUES ('worker2: insert');
\c - - 127.0.0.1 :coord_port
SELECT via, count(*), min(public.xid_node(id, 4)) AS id_node_min, max(public.xid_node(id, 4)) AS id_node_max,
       min(public.xid_node(other, 4)) AS other_node_min, max(public.xid_node(other, 4)) AS other_node_max
FROM origins GROUP BY via ORDER BY via;
-- Citus refuses xid_new() in an UPDATE, of one row as of many; a new id
-- made first is a constant
SELECT id AS one FROM origins WHERE via = 'worker2: insert' \gset
UPDATE origins SET other = public.xid_new() WHERE id = :'one';
UPDATE origins SET other = public.xid_new() WHERE via = 'worker1: insert';
SELECT public.xid_new() AS fresh \gset
UPDATE origins SET other = :'fresh' WHERE id = :'one';
SELECT public.xid_node(other, 4) FROM origins WHERE id = :'one';
SELECT count(*), count(DISTINCT id), count(DISTINCT other) FROM origins;
-- every node keeps its own durable mark (README "Restarts, crashes, clock
-- steps and failover"), and it covers the ids that node made
SELECT n.nodeport = :coord_port AS coordinator, r.success, r.result
FROM run_command_on_all_nodes($$
    SELECT format('%s %s', durable, durable_mark >= last_time) FROM public.xid_generator_status()$$) r
JOIN pg_dist_node n USING (nodeid) ORDER BY n.nodeport;
