-- bench/scale.sql: the tables and procedures of bench/scale-local.sh.
--   :has_uuidv7  true on 18 and later (core's uuidv7())
--
-- Four tables of one shape, the key the only difference: id, created_at,
-- account_id, body (a 32-character text), about 80 bytes a row.  The
-- primary key is the only index while rows go in; the rivals' index on
-- created_at, which their time windows need and xid's do not, is built
-- for the queries and dropped after them (scale-local.sh).
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS scale CASCADE;
CREATE SCHEMA scale;

CREATE TABLE scale.t_xid (id public.xid PRIMARY KEY DEFAULT public.xid_new(),
	created_at timestamptz NOT NULL DEFAULT now(), account_id bigint NOT NULL, body text NOT NULL);
CREATE TABLE scale.t_bigserial (id bigserial PRIMARY KEY,
	created_at timestamptz NOT NULL DEFAULT now(), account_id bigint NOT NULL, body text NOT NULL);
CREATE TABLE scale.t_uuid4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	created_at timestamptz NOT NULL DEFAULT now(), account_id bigint NOT NULL, body text NOT NULL);
\if :has_uuidv7
CREATE TABLE scale.t_uuid7 (id uuid PRIMARY KEY DEFAULT uuidv7(),
	created_at timestamptz NOT NULL DEFAULT now(), account_id bigint NOT NULL, body text NOT NULL);
\endif

-- the key types in the run, in the order of the report
CREATE TABLE scale.kinds (kind text PRIMARY KEY, ord int NOT NULL, label text NOT NULL);
INSERT INTO scale.kinds
	SELECT * FROM (VALUES ('xid', 1, 'xid'), ('bigserial', 2, 'bigserial'),
		('uuid4', 3, 'uuid v4'), ('uuid7', 4, 'uuidv7()')) v (kind, ord, label)
	WHERE to_regclass('scale.t_' || kind) IS NOT NULL;

-- the fill's clock: row n (from 1) of every table was made at
-- t0 + n / 10 s; scale.restart(rows) empties the tables and sets t0 so that
-- the history of that many rows ends a minute before now
CREATE TABLE scale.clock (t0 timestamptz NOT NULL, per_second int NOT NULL);
INSERT INTO scale.clock VALUES (now(), 10);
CREATE FUNCTION scale.restart(rows bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	k text;
BEGIN
	FOR k IN SELECT kind FROM scale.kinds LOOP
		EXECUTE format('TRUNCATE scale.%I', 't_' || k);
	END LOOP;
	UPDATE scale.clock SET t0 = now() - (rows::float8 / per_second + 60) * interval '1 s';
END $$;

-- what each step, round and table measured (scale-local.sh writes it)
CREATE TABLE scale.results (step bigint NOT NULL, round int NOT NULL, kind text NOT NULL,
	metric text NOT NULL, value float8 NOT NULL);

-- scale.row_time(n): when the fill made row n
CREATE FUNCTION scale.row_time(n bigint) RETURNS timestamptz LANGUAGE sql STABLE
	AS $$ SELECT t0 + n * interval '1 s' / per_second FROM scale.clock $$;

-- scale.fill(kind, upto): rows 1 to upto of the table, which
-- scale.restart() emptied, in the order of their time (as an application
-- makes them), a million a transaction; each key made for its row's time:
-- xid_new(t), uuidv7(shift) and the sequence (which orders as the time
-- does), or at random (v4)
CREATE PROCEDURE scale.fill(k text, upto bigint) LANGUAGE plpgsql AS $$
DECLARE
	a bigint;
	b bigint;
	c scale.clock;
	id_col text := CASE k WHEN 'xid' THEN 'id, ' WHEN 'uuid7' THEN 'id, ' ELSE '' END;
	id_val text := CASE k WHEN 'xid' THEN 'public.xid_new(t), '
		WHEN 'uuid7' THEN 'uuidv7(t - clock_timestamp()), ' ELSE '' END;
BEGIN
	SELECT * INTO c FROM scale.clock;
	a := 1;
	WHILE a <= upto LOOP
		b := least(a + 999999, upto);
		EXECUTE format('INSERT INTO scale.%I (%screated_at, account_id, body)
			SELECT %st, g %% 100000, md5(g::text)
			FROM (SELECT g, $3 + g * $4 AS t FROM generate_series($1, $2) g) s',
			't_' || k, id_col, id_val) USING a, b, c.t0, interval '1 s' / c.per_second;
		COMMIT;
		a := b + 1;
	END LOOP;
END $$;

-- scale.sample(kind, n): the keys of about n rows at random, numbered
-- from 1 (the lookups' pgbench scripts pick one), with the prefix of each
-- key that names about 40 bits: 7 symbols of xid's text (41 bits), the
-- first 10 hex digits of a uuid as a range (40 bits); none for bigserial
CREATE PROCEDURE scale.sample(k text, want int) LANGUAGE plpgsql AS $$
DECLARE
	rows bigint;
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS scale.%I', 'keys_' || k);
	EXECUTE format('SELECT count(*) FROM scale.%I', 't_' || k) INTO rows;
	EXECUTE format($q$CREATE TABLE scale.%I AS
		SELECT row_number() OVER () AS n, id::text AS key,
			CASE %L WHEN 'xid' THEN left(id::text, 7) ELSE left(id::text, 11) END AS prefix
		FROM scale.%I TABLESAMPLE BERNOULLI (%s) REPEATABLE (1)$q$,
		'keys_' || k, k, 't_' || k, least(100, 100.0 * want / greatest(rows, 1)));
	EXECUTE format('ALTER TABLE scale.%I ADD PRIMARY KEY (n)', 'keys_' || k);
	EXECUTE format('ANALYZE scale.%I', 'keys_' || k);
END $$;

-- scale.window(kind, from, to): the time window's query, on the key for
-- xid, on created_at for the rivals
CREATE FUNCTION scale.window_sql(k text, a timestamptz, b timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
	SELECT format('SELECT count(*) FROM scale.%I WHERE %s >= %L::timestamptz%s',
		't_' || k, CASE k WHEN 'xid' THEN 'id' ELSE 'created_at' END, a,
		CASE WHEN b IS NULL THEN ''
			ELSE format(' AND %s < %L::timestamptz', CASE k WHEN 'xid' THEN 'id' ELSE 'created_at' END, b) END)
$$;

-- scale.explain(sql, times): planning and execution time (ms), the rows
-- the planner expected and the rows there were at the scan, of the last of
-- times runs in this session (1: cold; 3: warm, the session's caches filled
-- by the first two).  A serial plan, whose scan's estimate is the table's.
CREATE FUNCTION scale.explain(q text, times int DEFAULT 1, OUT planning float8, OUT execution float8,
	OUT expected float8, OUT actual float8) LANGUAGE plpgsql
	SET max_parallel_workers_per_gather = 0 AS $$
DECLARE
	j json;
	node json;
BEGIN
	FOR i IN 1..times LOOP
		EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || q INTO j;
	END LOOP;
	planning := (j -> 0 ->> 'Planning Time')::float8;
	execution := (j -> 0 ->> 'Execution Time')::float8;
	-- down from the aggregate to the scan of the table
	node := j -> 0 -> 'Plan';
	WHILE node ->> 'Node Type' NOT LIKE '%Scan' AND node -> 'Plans' IS NOT NULL LOOP
		node := node -> 'Plans' -> 0;
	END LOOP;
	expected := (node ->> 'Plan Rows')::float8;
	actual := (node ->> 'Actual Rows')::float8 * (node ->> 'Actual Loops')::float8;
END $$;

-- scale.record(step, round, kind, metric, value)
CREATE FUNCTION scale.record(s bigint, r int, k text, m text, v float8) RETURNS void
LANGUAGE sql AS $$ INSERT INTO scale.results VALUES (s, r, k, m, v) $$;
