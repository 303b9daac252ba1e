-- bench/bench.sql: tables, cases and the timing function of the benchmark
-- (loaded by bench/run.sh; :rows is the row count, :has_uuidv7 is true on 18+)
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
-- The cluster runs with synchronous_commit = off.  A row's commit hint bit
-- cannot be set before its commit record is flushed, and VACUUM marks a
-- page all-visible only when every row on it has that bit: loading with
-- asynchronous commits left the tables without all-visible pages, so that
-- index-only scans read the heap for every row, some tables more than
-- others.  The load commits synchronously; the check at the end holds.
SET synchronous_commit = on;
CREATE EXTENSION IF NOT EXISTS xid;
DROP SCHEMA IF EXISTS bench CASCADE;
CREATE SCHEMA bench;
CREATE SEQUENCE bench.seq;
-- the portable implementation (portable/), for its own cases
DROP EXTENSION IF EXISTS xid_portable;
DROP SCHEMA IF EXISTS xp;
CREATE SCHEMA xp;
CREATE EXTENSION xid_portable SCHEMA xp;

-- text and values to parse, format and sort: random in every type
CREATE TABLE bench.txt_xid AS
	SELECT public.xid_new(now() - random() * interval '3 years')::text AS t FROM generate_series(1, :rows);
CREATE TABLE bench.txt_uuid AS SELECT gen_random_uuid()::text AS t FROM generate_series(1, :rows);
CREATE TABLE bench.txt_bigint AS
	SELECT (random() * 9e18)::bigint::text AS t FROM generate_series(1, :rows);
CREATE TABLE bench.val_xid AS SELECT t::public.xid AS id FROM bench.txt_xid;
CREATE TABLE bench.val_uuid AS SELECT t::uuid AS id FROM bench.txt_uuid;
CREATE TABLE bench.val_bigint AS SELECT t::bigint AS id FROM bench.txt_bigint;

-- 200,000 payloads and their texts for the portable cases
CREATE TABLE bench.port_val AS
	SELECT public.xid_new(now() - random() * interval '3 years')::bigint AS v FROM generate_series(1, 200000);
CREATE TABLE bench.port_txt AS SELECT v::public.xid::text AS t FROM bench.port_val;

-- primary-key tables for the insert cases
CREATE TABLE bench.ins_xid (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int);
CREATE TABLE bench.ins_bigserial (id bigserial PRIMARY KEY, v int);
CREATE TABLE bench.ins_uuid4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), v int);
\if :has_uuidv7
CREATE TABLE bench.ins_uuid7 (id uuid PRIMARY KEY DEFAULT uuidv7(), v int);
\endif

-- lookup tables: a year of history, one row every ~16 s, keyed by xid, by
-- bigint, and by bigint with a created_at column and its own index
CREATE TABLE bench.ev_xid (id public.xid PRIMARY KEY, v int);
CREATE TABLE bench.ev_bigint (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, v int);
INSERT INTO bench.ev_xid
	SELECT public.xid_new('2025-01-01+00'::timestamptz + g * (interval '1 year' / :rows)), g
	FROM generate_series(1, :rows) AS g;
INSERT INTO bench.ev_bigint
	SELECT g, '2025-01-01+00'::timestamptz + g * (interval '1 year' / :rows), g
	FROM generate_series(1, :rows) AS g;
CREATE INDEX ev_bigint_created_at ON bench.ev_bigint (created_at);
VACUUM ANALYZE bench.ev_xid;
VACUUM ANALYZE bench.ev_bigint;

-- 20,000 probes: existing keys, their 7-symbol prefixes, and bigint ranges
-- holding as many rows as the prefixes do
CREATE TABLE bench.probe AS
	SELECT x.id AS xid_key, left(x.id::text, 7) AS prefix, b.id AS bigint_key
	FROM (SELECT id, row_number() OVER () AS r
	      FROM (SELECT id FROM bench.ev_xid ORDER BY random() LIMIT 20000) s) x
	JOIN (SELECT id, row_number() OVER () AS r
	      FROM (SELECT id FROM bench.ev_bigint ORDER BY random() LIMIT 20000) s) b USING (r);
SELECT round(avg(c)) AS rows_per_prefix FROM (
	SELECT (SELECT count(*) FROM bench.ev_xid WHERE id <@ public.xid_prefix_range(prefix)) AS c
	FROM bench.probe LIMIT 500) s \gset
-- one 6-symbol prefix (about 156 ms of ids) for the LIKE comparison
SELECT left(id::text, 6) AS one_prefix FROM bench.ev_xid WHERE v = :rows / 2 \gset
CREATE TABLE bench.settings AS SELECT :rows_per_prefix::int AS rows_per_prefix, :'one_prefix'::text AS one_prefix;

-- point lookups, 20,000 in a loop (both keys plan once, generic)
CREATE FUNCTION bench.point_xid() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE k public.xid; n bigint := 0; v int;
BEGIN
	FOR k IN SELECT xid_key FROM bench.probe LOOP
		SELECT e.v INTO v FROM bench.ev_xid e WHERE e.id = k;
		n := n + v;
	END LOOP;
	RETURN n;
END $$;
CREATE FUNCTION bench.point_bigint() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE k bigint; n bigint := 0; v int;
BEGIN
	FOR k IN SELECT bigint_key FROM bench.probe LOOP
		SELECT e.v INTO v FROM bench.ev_bigint e WHERE e.id = k;
		n := n + v;
	END LOOP;
	RETURN n;
END $$;
-- prefix lookups, 20,000 in a loop; as for point lookups the statement is
-- prepared once by PL/pgSQL, and the plan cache chooses between custom and
-- generic plans in the same way for both keys
CREATE FUNCTION bench.prefix_xid() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE p text; n bigint := 0; c bigint;
BEGIN
	FOR p IN SELECT prefix FROM bench.probe LOOP
		SELECT count(*) INTO c FROM bench.ev_xid WHERE id <@ public.xid_prefix_range(p);
		n := n + c;
	END LOOP;
	RETURN n;
END $$;
CREATE FUNCTION bench.between_bigint() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE k bigint; n bigint := 0; c bigint; w int := (SELECT rows_per_prefix FROM bench.settings);
BEGIN
	FOR k IN SELECT bigint_key FROM bench.probe LOOP
		SELECT count(*) INTO c FROM bench.ev_bigint WHERE id BETWEEN k AND k + w - 1;
		n := n + c;
	END LOOP;
	RETURN n;
END $$;
-- one prefix through the index, 1,000 times (reported per query)
CREATE FUNCTION bench.one_prefix_xid(times int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE p text := (SELECT one_prefix FROM bench.settings); n bigint := 0; c bigint;
BEGIN
	FOR i IN 1 .. times LOOP
		SELECT count(*) INTO c FROM bench.ev_xid WHERE id <@ public.xid_prefix_range(p);
		n := n + c;
	END LOOP;
	RETURN n;
END $$;

-- one 6-symbol prefix, 1,000 times, as LIKE 'prefix%' and as ^@ (both
-- parameters, as an application sends them)
CREATE FUNCTION bench.one_like_xid(times int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE p text := (SELECT one_prefix FROM bench.settings) || '%'; n bigint := 0; c bigint;
BEGIN
	FOR i IN 1 .. times LOOP
		SELECT count(*) INTO c FROM bench.ev_xid WHERE id LIKE p;
		n := n + c;
	END LOOP;
	RETURN n;
END $$;
CREATE FUNCTION bench.one_starts_with_xid(times int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE p text := (SELECT one_prefix FROM bench.settings); n bigint := 0; c bigint;
BEGIN
	FOR i IN 1 .. times LOOP
		SELECT count(*) INTO c FROM bench.ev_xid WHERE id ^@ p;
		n := n + c;
	END LOOP;
	RETURN n;
END $$;
-- DDL that makes no core xid column, 200 times, with the core-xid warning
-- at work (origin) and not (replica: event triggers enabled the ordinary
-- way do not fire there, and xid.warn_core_xid = off makes the library's
-- hook return at once; bench/safety.sh compares with databases without
-- the extension and without the library)
CREATE FUNCTION bench.ddl(times int, role text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('session_replication_role', role, true);
	PERFORM set_config('xid.warn_core_xid', CASE role WHEN 'replica' THEN 'off' ELSE 'on' END, true);
	FOR i IN 1 .. times LOOP
		CREATE TABLE bench.ddl_t (id public.xid PRIMARY KEY, v int, t text);
		ALTER TABLE bench.ddl_t ADD COLUMN w int;
		DROP TABLE bench.ddl_t;
	END LOOP;
	PERFORM set_config('session_replication_role', 'origin', true);
	PERFORM set_config('xid.warn_core_xid', 'on', true);
END $$;

-- a statement run TIMES times, planned each time, as a client's query with
-- literals is: for queries too short to time once
CREATE FUNCTION bench.repeat(q text, times int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint := 0; c bigint;
BEGIN
	FOR i IN 1 .. times LOOP
		EXECUTE q INTO c;
		n := n + c;
	END LOOP;
	RETURN n;
END $$;

-- 366 daily partitions, a year of rows every 30 seconds up to now: keyed
-- by the id, and keyed by a timestamptz column with an index on it
CREATE TABLE bench.pt_xid (id public.xid NOT NULL, v int) PARTITION BY RANGE (id);
CREATE TABLE bench.pt_ts (id bigint NOT NULL, created_at timestamptz NOT NULL, v int)
	PARTITION BY RANGE (created_at);
SELECT format('CREATE TABLE bench.pt_xid_%1$s PARTITION OF bench.pt_xid FOR VALUES FROM (%2$L) TO (%3$L);
			   CREATE TABLE bench.pt_ts_%1$s PARTITION OF bench.pt_ts FOR VALUES FROM (%4$L) TO (%5$L)',
			  k, public.xid_time_lower_bound(d, true), public.xid_time_lower_bound(d + interval '1 day', true),
			  d, d + interval '1 day')
FROM generate_series(0, 365) AS k,
	 LATERAL (SELECT date_trunc('day', now(), 'UTC') - k * interval '1 day' AS d) AS s \gexec
INSERT INTO bench.pt_xid
SELECT public.xid_new(t), 1 FROM generate_series(now() - interval '365 days', now(), '30 seconds') AS t;
INSERT INTO bench.pt_ts
SELECT row_number() OVER (), t, 1 FROM generate_series(now() - interval '365 days', now(), '30 seconds') AS t;
ALTER TABLE bench.pt_xid ADD PRIMARY KEY (id);
CREATE INDEX ON bench.pt_ts (created_at);
-- a one-day window 100 days ago, TIMES times, as a prepared statement's
-- generic plan (the bounds are parameters)
CREATE FUNCTION bench.pt_window_xid(times int) RETURNS bigint LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE a timestamptz := date_trunc('day', now(), 'UTC') - interval '100 days' + interval '6 hours';
	n bigint := 0; c bigint;
BEGIN
	FOR i IN 1 .. times LOOP
		SELECT count(*) INTO c FROM bench.pt_xid WHERE id >= a AND id < a + interval '1 day';
		n := n + c;
	END LOOP;
	RETURN n;
END $$;
CREATE FUNCTION bench.pt_window_ts(times int) RETURNS bigint LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE a timestamptz := date_trunc('day', now(), 'UTC') - interval '100 days' + interval '6 hours';
	n bigint := 0; c bigint;
BEGIN
	FOR i IN 1 .. times LOOP
		SELECT count(*) INTO c FROM bench.pt_ts WHERE created_at >= a AND created_at < a + interval '1 day';
		n := n + c;
	END LOOP;
	RETURN n;
END $$;

-- cases: name, group, statement run before the timed one ($q: the timed
-- statement itself, as a warm-up), timed statement
CREATE TABLE bench.cases (name text PRIMARY KEY, grp text, setup text, query text, per int NOT NULL DEFAULT 1,
	best_of int NOT NULL DEFAULT 3);
INSERT INTO bench.cases (name, grp, setup, query) VALUES
	('gen xid_new()', 'generate', NULL, format('SELECT count(public.xid_new()) FROM generate_series(1, %s)', :rows)),
	('gen clock_timestamp()', 'generate', NULL, format('SELECT count(clock_timestamp()) FROM generate_series(1, %s)', :rows)),
	('gen random()', 'generate', NULL, format('SELECT count(random()) FROM generate_series(1, %s)', :rows)),
	('gen nextval()', 'generate', NULL, format('SELECT count(nextval(''bench.seq'')) FROM generate_series(1, %s)', :rows)),
	('gen gen_random_uuid()', 'generate', NULL, format('SELECT count(gen_random_uuid()) FROM generate_series(1, %s)', :rows)),
	('parse xid', 'parse', NULL, 'SELECT count(t::public.xid) FROM bench.txt_xid'),
	('parse uuid', 'parse', NULL, 'SELECT count(t::uuid) FROM bench.txt_uuid'),
	('parse bigint', 'parse', NULL, 'SELECT count(t::bigint) FROM bench.txt_bigint'),
	('format xid', 'format', NULL, 'SELECT count(id::text) FROM bench.val_xid'),
	('format uuid', 'format', NULL, 'SELECT count(id::text) FROM bench.val_uuid'),
	('format bigint', 'format', NULL, 'SELECT count(id::text) FROM bench.val_bigint'),
	('sort xid', 'sort', NULL, format('SELECT id FROM bench.val_xid ORDER BY id OFFSET %s', :rows)),
	('sort uuid', 'sort', NULL, format('SELECT id FROM bench.val_uuid ORDER BY id OFFSET %s', :rows)),
	('sort bigint', 'sort', NULL, format('SELECT id FROM bench.val_bigint ORDER BY id OFFSET %s', :rows)),
	('insert xid', 'insert', 'TRUNCATE bench.ins_xid', format('INSERT INTO bench.ins_xid (v) SELECT g FROM generate_series(1, %s) AS g', :rows)),
	('insert bigserial', 'insert', 'TRUNCATE bench.ins_bigserial RESTART IDENTITY', format('INSERT INTO bench.ins_bigserial (v) SELECT g FROM generate_series(1, %s) AS g', :rows)),
	('insert uuid v4', 'insert', 'TRUNCATE bench.ins_uuid4', format('INSERT INTO bench.ins_uuid4 (v) SELECT g FROM generate_series(1, %s) AS g', :rows)),
	('point xid', 'point', NULL, 'SELECT bench.point_xid()'),
	('point bigint', 'point', NULL, 'SELECT bench.point_bigint()'),
	('prefix xid <@ xid_prefix_range', 'prefix', NULL, 'SELECT bench.prefix_xid()'),
	('prefix bigint BETWEEN', 'prefix', NULL, 'SELECT bench.between_bigint()');
-- single queries run once untimed first, so that the timed run finds the
-- session's catalog caches warm; per: how many queries one run makes
INSERT INTO bench.cases (name, grp, setup, query, per) VALUES
	('one prefix xid <@ xid_prefix_range', 'like', '$q', 'SELECT bench.one_prefix_xid(1000)', 1000),
	('one prefix id::text LIKE', 'like', '$q', format('SELECT count(*) FROM bench.ev_xid WHERE id::text LIKE %L', :'one_prefix' || '%'), 1),
	('window xid_time_range', 'window', '$q', format('SELECT bench.repeat(%L, 100)',
		'SELECT count(*) FROM bench.ev_xid WHERE id <@ public.xid_time_range(''[2025-03-01+00, 2025-03-08+00)'')'), 100),
	('window xid >= timestamptz', 'window', '$q', format('SELECT bench.repeat(%L, 100)',
		'SELECT count(*) FROM bench.ev_xid WHERE id >= ''2025-03-01+00''::timestamptz AND id < ''2025-03-08+00''::timestamptz'), 100),
	('one prefix xid LIKE', 'like', '$q', 'SELECT bench.one_like_xid(1000)', 1000),
	('one prefix xid ^@', 'like', '$q', 'SELECT bench.one_starts_with_xid(1000)', 1000),
	('ddl with the warning trigger', 'ddl', NULL, 'SELECT bench.ddl(200, ''origin'')', 200),
	('ddl without the trigger', 'ddl', NULL, 'SELECT bench.ddl(200, ''replica'')', 200),
	('window created_at', 'window', '$q', format('SELECT bench.repeat(%L, 100)',
		'SELECT count(*) FROM bench.ev_bigint WHERE created_at >= ''2025-03-01+00'' AND created_at < ''2025-03-08+00'''), 100),
	-- the same week's rows read from the table (a column summed), not
	-- only counted from the index
	('window rows xid >= timestamptz', 'window', '$q', format('SELECT bench.repeat(%L, 100)',
		'SELECT sum(v) FROM bench.ev_xid WHERE id >= ''2025-03-01+00''::timestamptz AND id < ''2025-03-08+00''::timestamptz'), 100),
	('window rows created_at', 'window', '$q', format('SELECT bench.repeat(%L, 100)',
		'SELECT sum(v) FROM bench.ev_bigint WHERE created_at >= ''2025-03-01+00'' AND created_at < ''2025-03-08+00'''), 100);
-- partitioned tables: the last day (planned each time, pruned when the
-- executor starts), and a prepared window (planned once)
INSERT INTO bench.cases (name, grp, setup, query, per) VALUES
	('partitions xid >= now() - 1 day', 'partition', '$q', format('SELECT bench.repeat(%L, 20)',
		'SELECT count(*) FROM bench.pt_xid WHERE id >= now() - interval ''1 day'''), 20),
	('partitions created_at >= now() - 1 day', 'partition', '$q', format('SELECT bench.repeat(%L, 20)',
		'SELECT count(*) FROM bench.pt_ts WHERE created_at >= now() - interval ''1 day'''), 20),
	('partitions prepared xid window', 'partition', '$q', 'SELECT bench.pt_window_xid(200)', 200),
	('partitions prepared created_at window', 'partition', '$q', 'SELECT bench.pt_window_ts(200)', 200);
-- the portable implementation over 200,000 values: per = 200 makes the
-- reported figure microseconds per value
INSERT INTO bench.cases (name, grp, setup, query, per) VALUES
	('portable xid_encode()', 'portable', NULL, 'SELECT count(xp.xid_encode(v)) FROM bench.port_val', 200),
	('portable xid_decode()', 'portable', NULL, 'SELECT count(xp.xid_decode(t)) FROM bench.port_txt', 200),
	('portable xid_new()', 'portable', NULL, 'SELECT count(xp.xid_new()) FROM generate_series(1, 200000)', 200);
\if :has_uuidv7
INSERT INTO bench.cases (name, grp, setup, query) VALUES
	('gen uuidv7()', 'generate', NULL, format('SELECT count(uuidv7()) FROM generate_series(1, %s)', :rows)),
	('insert uuidv7', 'insert', 'TRUNCATE bench.ins_uuid7', format('INSERT INTO bench.ins_uuid7 (v) SELECT g FROM generate_series(1, %s) AS g', :rows));
\endif

-- the inserts take seconds each and run once a round; every other case is
-- timed three times back to back and keeps the best, which filters out
-- the background work (WAL, writeback) that the inserts leave behind
UPDATE bench.cases SET best_of = 1 WHERE grp = 'insert';

CREATE TABLE bench.results (name text, round int, ms float8);
CREATE FUNCTION bench.run(case_name text, round int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE c bench.cases; t0 timestamptz; ms float8; best float8;
BEGIN
	SELECT * INTO c FROM bench.cases WHERE name = case_name;
	IF c.setup = '$q' THEN
		EXECUTE c.query;
	END IF;
	FOR i IN 1 .. c.best_of LOOP
		IF c.setup IS NOT NULL AND c.setup <> '$q' THEN
			EXECUTE c.setup;
		END IF;
		t0 := clock_timestamp();
		EXECUTE c.query;
		ms := extract(epoch FROM clock_timestamp() - t0) * 1000 / c.per;
		best := least(best, ms);
	END LOOP;
	INSERT INTO bench.results VALUES (case_name, round, best);
	RETURN best;
END $$;

-- every table vacuumed (hint bits set, the lookup tables all-visible, so
-- that index-only scans are index-only) and analysed
VACUUM ANALYZE;
DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT c.relname, c.relpages, c.relallvisible FROM pg_class c
		WHERE c.oid IN ('bench.ev_xid'::regclass, 'bench.ev_bigint'::regclass) LOOP
		IF r.relallvisible < r.relpages THEN
			RAISE EXCEPTION 'bench.% has % of % pages all-visible after VACUUM', r.relname, r.relallvisible, r.relpages;
		END IF;
	END LOOP;
END $$;
