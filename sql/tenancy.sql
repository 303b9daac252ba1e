--
-- A database owner who is not a superuser installs the trusted extension
-- (test/t/130_tenants.pl tries the same with several owners on one server)
--
DROP EXTENSION xid;
CREATE ROLE regress_xid_owner;
SELECT current_database() AS db \gset
GRANT CREATE ON DATABASE :"db" TO regress_xid_owner;
SET ROLE regress_xid_owner;
CREATE SCHEMA own;

-- a relation named like the mark, made in the schema before the extension,
-- is neither taken over nor a riddle (the context, the script's lines on
-- 18 and later, is left out)
CREATE SEQUENCE own.xid_durable_mark;
\set SHOW_CONTEXT never
CREATE EXTENSION xid SCHEMA own;
CREATE EXTENSION xid VERSION '1.0' SCHEMA own;
ALTER EXTENSION xid UPDATE;
\set SHOW_CONTEXT errors
SELECT extversion FROM pg_extension WHERE extname = 'xid';
-- nor does the library take it for the mark
SELECT setval('own.xid_durable_mark', 3000000000000) > 0 AS set_to_2106;
SELECT extract(year FROM own.xid_time(own.xid_new())) = extract(year FROM now()) AS ids_keep_the_clock;
DROP SEQUENCE own.xid_durable_mark;
ALTER EXTENSION xid UPDATE;

-- the extension's mark: the owner may read it (pg_dump) and set it
-- (pg_restore), through a grant that pg_dump does not repeat
SELECT has_sequence_privilege('own.xid_durable_mark', 'SELECT') AS may_read,
       has_sequence_privilege('own.xid_durable_mark', 'UPDATE') AS may_set,
       c.relowner <> e.extowner AS owned_by_the_bootstrap_superuser,
       EXISTS (SELECT FROM pg_init_privs i WHERE i.objoid = c.oid AND i.classoid = 'pg_class'::regclass) AS in_init_privs
FROM pg_class c, pg_extension e
WHERE c.oid = 'own.xid_durable_mark'::regclass AND e.extname = 'xid';
\set VERBOSITY sqlstate
ALTER SEQUENCE own.xid_durable_mark MAXVALUE 5;
\set VERBOSITY default

-- a mark set more than a day ahead of the clock is refused, in this
-- database (with shared state; without it there is no mark)
SELECT setval('own.xid_durable_mark', 3000000000000) > 0 AS set_to_2106;
DO $$
BEGIN
	PERFORM own.xid_new();
	RAISE NOTICE 'an id';
EXCEPTION WHEN sequence_generator_limit_exceeded THEN
	RAISE NOTICE 'refused: %', regexp_replace(regexp_replace(SQLERRM, '[0-9]+ ms', 'N ms'), 'database "[^"]*"', 'database D');
END
$$;
-- its owner can set it back
SELECT setval('own.xid_durable_mark', 0) = 0 AS set_back;
SELECT own.xid_time(own.xid_new()) <= clock_timestamp() AS ids_again;

DROP EXTENSION xid;
DROP SCHEMA own;
RESET ROLE;
REVOKE CREATE ON DATABASE :"db" FROM regress_xid_owner;
DROP ROLE regress_xid_owner;
-- leave the extension as the other tests expect it
CREATE EXTENSION xid;
