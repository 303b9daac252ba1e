--
-- The durable mark: its sequence, xid_generator_status() and xid.max_ahead
-- (restarts, crashes, clock steps and failover need servers whose clock
-- moves: see test/t/020_durable.pl)
--
SELECT public.xid_node('5cnEkaefSdu', 0) AS loads_the_library;

-- the mark is a sequence of the extension, in its schema, that pg_dump
-- carries; no one but its owner and the database's owner (who dump and
-- restore it) may touch it
SELECT c.relname, c.relkind,
       array(SELECT a.grantee::regrole::text || ':' || a.privilege_type
             FROM aclexplode(c.relacl) AS a
             WHERE a.grantee <> c.relowner ORDER BY 1) AS granted,
       c.oid = ANY (e.extconfig) AS dumped_by_pg_dump,
       s.seqmin, s.seqmax, s.seqmax = (2::numeric ^ 42 - 1) AS max_is_42_bits
FROM pg_class c
JOIN pg_sequence s ON s.seqrelid = c.oid
JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'xid'
WHERE c.relnamespace = 'public'::regnamespace;
CREATE ROLE xid_durable_app;
SET ROLE xid_durable_app;
\set VERBOSITY sqlstate
SELECT nextval('public.xid_durable_mark');
SELECT setval('public.xid_durable_mark', 1);
\set VERBOSITY default
-- but every role makes ids, also in a read-only transaction
BEGIN READ ONLY;
SELECT count(DISTINCT id) AS ids FROM (SELECT public.xid_new() AS id FROM generate_series(1, 1000)) s;
COMMIT;
RESET ROLE;
DROP ROLE xid_durable_app;

-- the state, visible: the last id made in this database, the clock, how
-- far ahead the two are; shared by the database's sessions and durable on
-- every version, with shared_preload_libraries or without
SELECT public.xid_new() AS made \gset
SELECT last_id >= :'made'::public.xid AS last_is_at_least_ours,
       last_time = public.xid_time(last_id) AS last_time_is_its_time,
       abs(extract(epoch FROM clock - clock_timestamp())) < 1 AS clock_is_now,
       last_ahead = last_time - clock AS last_ahead_is_the_gap,
       mark_ahead IS NOT DISTINCT FROM durable_mark - clock AS mark_ahead_is_the_gap,
       scope = 'database' AS scope_is_database,
       durable,
       durable_mark >= last_time AS mark_covers_the_last_id
FROM public.xid_generator_status();
SELECT proname, provolatile, proparallel, pg_get_function_arguments(oid)
FROM pg_proc WHERE proname = 'xid_generator_status';

-- the bound on running ahead of the clock: off by default, in the server's
-- configuration only
SHOW xid.max_ahead;
\set VERBOSITY sqlstate
SET xid.max_ahead = '1h';
\set VERBOSITY default
SELECT name, setting, unit, context, min_val, max_val FROM pg_settings WHERE name = 'xid.max_ahead';
