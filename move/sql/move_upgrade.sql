--
-- move_upgrade: the script of every release of xid_move is kept and never
-- edited; each later version comes with an upgrade script.  1.0 updated
-- to the default version equals a fresh install: every member object,
-- with everything that defines it, described by name (OIDs differ).
--
SET client_min_messages = warning;
CREATE FUNCTION pg_temp.members() RETURNS SETOF text
LANGUAGE sql AS $$
WITH m AS (
	SELECT d.classid, d.objid
	FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'xid_move'
)
SELECT 'function ' || pg_get_functiondef(p.oid) || ' acl ' || coalesce(p.proacl::text, '-')
       || ' comment ' || coalesce(obj_description(p.oid, 'pg_proc'), '-')
FROM m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
UNION ALL
SELECT format('relation %s kind %s acl %s columns %s comment %s', c.oid::regclass, c.relkind, c.relacl,
              (SELECT string_agg(format('%I %s %s %s', a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                                        pg_get_expr(ad.adbin, ad.adrelid)), ', ' ORDER BY a.attnum)
               FROM pg_attribute a LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
               WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
              obj_description(c.oid, 'pg_class'))
FROM m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
UNION ALL
SELECT format('constraint %s on %s: %s', con.conname, con.conrelid::regclass, pg_get_constraintdef(con.oid))
FROM m JOIN pg_constraint con ON m.classid = 'pg_class'::regclass AND con.conrelid = m.objid
UNION ALL
SELECT format('index %s', pg_get_indexdef(i.indexrelid))
FROM m JOIN pg_index i ON m.classid = 'pg_class'::regclass AND i.indrelid = m.objid
UNION ALL
SELECT format('trigger %s', pg_get_triggerdef(t.oid))
FROM m JOIN pg_trigger t ON m.classid = 'pg_class'::regclass AND t.tgrelid = m.objid AND NOT t.tgisinternal
UNION ALL
SELECT format('type %s', t.oid::regtype)
FROM m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
UNION ALL
SELECT format('config %s condition %s', x.c::regclass, x.cond)
FROM pg_extension e, unnest(e.extconfig, e.extcondition) AS x(c, cond) WHERE e.extname = 'xid_move'
$$;

DROP EXTENSION xid_move;
CREATE EXTENSION xid_move VERSION '1.0' SCHEMA public;
SELECT extversion FROM pg_extension WHERE extname = 'xid_move';
ALTER EXTENSION xid_move UPDATE;
SELECT extversion = default_version AS at_default
FROM pg_extension e JOIN pg_available_extensions a ON a.name = e.extname WHERE e.extname = 'xid_move';
CREATE TEMP TABLE updated AS SELECT * FROM pg_temp.members() AS x(d);
DROP EXTENSION xid_move;
CREATE EXTENSION xid_move SCHEMA public;
CREATE TEMP TABLE fresh AS SELECT * FROM pg_temp.members() AS x(d);
SELECT count(*) FILTER (WHERE d LIKE 'function %') AS functions, count(*) FILTER (WHERE d LIKE 'relation %') AS relations, count(*) FILTER (WHERE d LIKE 'trigger %') AS triggers FROM fresh;
-- what only one of them has (nothing)
(SELECT 'only updated' AS side, d FROM updated EXCEPT ALL SELECT 'only updated', d FROM fresh)
UNION ALL
(SELECT 'only fresh', d FROM fresh EXCEPT ALL SELECT 'only fresh', d FROM updated);

-- a move started under 1.0 goes on and ends under 1.1 (its insert
-- trigger, which 1.1 does not make, goes at the swap)
DROP EXTENSION xid_move;
CREATE EXTENSION xid_move VERSION '1.0' SCHEMA public;
CREATE SCHEMA mu;
CREATE TABLE mu.p (id bigint PRIMARY KEY, t timestamptz NOT NULL);
CREATE TABLE mu.c (id bigint PRIMARY KEY, p_id bigint REFERENCES mu.p);
INSERT INTO mu.p SELECT g, timestamptz '2024-01-01' + g * interval '1 s' FROM generate_series(1, 200) g;
INSERT INTO mu.c SELECT g, g FROM generate_series(1, 200) g;
CALL xid_move_start('mu.p', time_column => 't');
SELECT tgname FROM pg_trigger WHERE tgrelid = 'mu.p'::regclass AND NOT tgisinternal ORDER BY 1;
ALTER EXTENSION xid_move UPDATE TO '1.2';
INSERT INTO mu.p VALUES (201, now());
INSERT INTO mu.c VALUES (201, 201);
CALL xid_move_backfill('mu.p');
SELECT * FROM xid_move_index_commands('mu.p') \gexec
CALL xid_move_validate('mu.p');
CALL xid_move_swap('mu.p');
CALL xid_move_finish('mu.p', drop_old => true);
SELECT tgname FROM pg_trigger WHERE tgrelid IN ('mu.p'::regclass, 'mu.c'::regclass) AND NOT tgisinternal;
SELECT count(*) AS children, count(p.id) AS with_parent, pg_typeof(min(c.p_id)) AS type
FROM mu.c c LEFT JOIN mu.p p ON p.id OPERATOR(public.=) c.p_id;
-- 1.3 records what a move makes, which a move started before it did not:
-- the update waits until no move is under way (55000)
CREATE TABLE mu.q (id bigint PRIMARY KEY, t timestamptz NOT NULL);
CALL xid_move_start('mu.q', time_column => 't');
\set VERBOSITY terse
ALTER EXTENSION xid_move UPDATE;
\set VERBOSITY default
CALL xid_move_abort('mu.q');
ALTER EXTENSION xid_move UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'xid_move';
DROP SCHEMA mu CASCADE;
DROP EXTENSION xid_move;
CREATE EXTENSION xid_move SCHEMA public;
