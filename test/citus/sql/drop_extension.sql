-- DROP EXTENSION xid while distributed tables use it: refused on the
-- coordinator with PostgreSQL's dependency error; on a worker Citus
-- refuses the command itself (extensions are managed from the
-- coordinator).  xid stays on every node.
\set VERBOSITY terse
DROP EXTENSION xid;
\c - - 127.0.0.1 :worker1_port
\set VERBOSITY terse
DROP EXTENSION xid;
\c - - 127.0.0.1 :coord_port
SELECT count(*) AS nodes_with_xid
FROM run_command_on_all_nodes($$SELECT extversion FROM pg_extension WHERE extname = 'xid'$$)
WHERE result <> '';
-- with nothing left that uses it, it drops (and here rolls back): the
-- shard placements that moves left behind are removed first, as Citus
-- does in the background (citus.defer_shard_delete_interval); until then
-- they too depend on xid, on their worker
SET client_min_messages = warning;
CALL citus_cleanup_orphaned_resources();
RESET client_min_messages;
BEGIN;
DROP TABLE events, event_details, comments, events_copy, kinds, flagged, events_archive, log,
    tenant_events, metrics, orders, refs, legacy, origins, sc_events, sc_details, rb_events,
    node_writes, move_writes CASCADE;
DROP FUNCTION plan_summary(text);
DROP EXTENSION xid;
ROLLBACK;
SELECT count(*) AS nodes_with_xid
FROM run_command_on_all_nodes($$SELECT extversion FROM pg_extension WHERE extname = 'xid'$$)
WHERE result <> '';
SELECT count(*) FROM events;
