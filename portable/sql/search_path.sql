--
-- The functions run pg_catalog's operators, functions and types whatever
-- the caller's search_path holds.  A schema on the caller's path (before
-- pg_catalog, too) holds an exact match for each operator the bodies use
-- through an implicit cast (bigint % integer, numeric * integer, ...) and
-- for some they use exactly, look-alikes of the functions they call and
-- domains named like the types they cast to: none of them may run.
--
SET timezone = 'UTC';
CREATE SCHEMA xs;
CREATE EXTENSION xid_portable SCHEMA xs;
CREATE SCHEMA hijack;
-- one function that fails, named for what it stands in for
CREATE FUNCTION hijack.caught(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'hijacked: %', what;
END $$;
CREATE FUNCTION hijack.op_bigint_int(bigint, integer) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('bigint op integer'); RETURN 0; END $$;
CREATE FUNCTION hijack.op_numeric_int(numeric, integer) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('numeric op integer'); RETURN 0; END $$;
CREATE FUNCTION hijack.op_numeric_bigint(numeric, bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('numeric op bigint'); RETURN false; END $$;
CREATE FUNCTION hijack.op_bigint_interval(bigint, interval) RETURNS interval LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('bigint * interval'); RETURN NULL; END $$;
CREATE FUNCTION hijack.op_bigint_bigint(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('bigint op bigint'); RETURN false; END $$;
CREATE FUNCTION hijack.op_text_text(text, text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('text op text'); RETURN false; END $$;
CREATE FUNCTION hijack.op_tstz_tstz(timestamptz, timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('timestamptz = timestamptz'); RETURN false; END $$;
CREATE OPERATOR hijack.% (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = hijack.op_bigint_int);
CREATE OPERATOR hijack.& (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = hijack.op_bigint_int);
CREATE OPERATOR hijack.| (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = hijack.op_bigint_int);
CREATE OPERATOR hijack.<< (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = hijack.op_bigint_int);
CREATE OPERATOR hijack.>> (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = hijack.op_bigint_int);
CREATE OPERATOR hijack./ (LEFTARG = bigint, RIGHTARG = integer, FUNCTION = hijack.op_bigint_int);
CREATE OPERATOR hijack.* (LEFTARG = numeric, RIGHTARG = integer, FUNCTION = hijack.op_numeric_int);
CREATE OPERATOR hijack.^ (LEFTARG = numeric, RIGHTARG = integer, FUNCTION = hijack.op_numeric_int);
CREATE OPERATOR hijack.> (LEFTARG = numeric, RIGHTARG = bigint, FUNCTION = hijack.op_numeric_bigint);
CREATE OPERATOR hijack.* (LEFTARG = bigint, RIGHTARG = interval, FUNCTION = hijack.op_bigint_interval);
CREATE OPERATOR hijack.< (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = hijack.op_bigint_bigint);
CREATE OPERATOR hijack.<= (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = hijack.op_bigint_bigint);
CREATE OPERATOR hijack.!~ (LEFTARG = text, RIGHTARG = text, FUNCTION = hijack.op_text_text);
CREATE OPERATOR hijack.<> (LEFTARG = text, RIGHTARG = text, FUNCTION = hijack.op_text_text);
CREATE OPERATOR hijack.= (LEFTARG = timestamptz, RIGHTARG = timestamptz, FUNCTION = hijack.op_tstz_tstz);
-- look-alike functions, and domains named like the types the bodies cast to
CREATE FUNCTION hijack.substr(text, integer, integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('substr'); RETURN ''; END $$;
CREATE FUNCTION hijack.strpos(text, text) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('strpos'); RETURN 0; END $$;
CREATE FUNCTION hijack.length(text) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('length'); RETURN 0; END $$;
CREATE FUNCTION hijack.format(text, text, integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('format'); RETURN ''; END $$;
CREATE FUNCTION hijack.floor(numeric) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('floor'); RETURN 0; END $$;
CREATE FUNCTION hijack.ceil(numeric) RETURNS numeric LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('ceil'); RETURN 0; END $$;
CREATE FUNCTION hijack.isfinite(timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('isfinite'); RETURN false; END $$;
CREATE FUNCTION hijack.current_setting(text, boolean) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('current_setting'); RETURN ''; END $$;
CREATE FUNCTION hijack.set_config(text, text, boolean) RETURNS text LANGUAGE plpgsql AS $$
BEGIN PERFORM hijack.caught('set_config'); RETURN ''; END $$;
CREATE DOMAIN hijack.text AS varchar(1);
CREATE DOMAIN hijack.timestamptz AS date;

-- every function, with the schema first on the path, even before
-- pg_catalog: the same results as without it
CREATE FUNCTION pg_temp.results() RETURNS TABLE (encoded text, decoded bigint, made timestamptz, low int, prefix_lo bigint, prefix_hi bigint, time_lo bigint, time_hi bigint, backfill_ms bigint)
LANGUAGE sql AS $$
SELECT xs.xid_encode(v), xs.xid_decode(xs.xid_encode(v)), xs.xid_time(v), xs.xid_random(v),
       xs.xid_prefix_lower(pg_catalog.left(xs.xid_encode(v), 4)), xs.xid_prefix_upper(pg_catalog.left(xs.xid_encode(v), 4)),
       xs.xid_time_lower(xs.xid_time(v)), xs.xid_time_upper(xs.xid_time(v)),
       xs.xid_new(xs.xid_time(v)) OPERATOR(pg_catalog.>>) 22
FROM (VALUES (0::bigint), (1988978084996448256), (9223372036854775807)) AS s(v)
$$;
CREATE TABLE expected_results AS SELECT * FROM pg_temp.results();
SET search_path = hijack, pg_catalog, xs;
CREATE TABLE public.got AS SELECT * FROM pg_temp.results();
RESET search_path;
SELECT (SELECT count(*) FROM got) AS got, (SELECT count(*) FROM (TABLE got EXCEPT TABLE expected_results) d) AS differ;
-- and with pg_catalog first (implicitly), where only the exact matches of
-- operators pg_catalog has through a cast could run
SET search_path = hijack, xs;
INSERT INTO public.got SELECT * FROM pg_temp.results();
RESET search_path;
SELECT (SELECT count(*) FROM got) AS got, (SELECT count(*) FROM (TABLE got EXCEPT TABLE expected_results) d) AS differ;
SET search_path = hijack, pg_catalog, xs;
-- generation, also through a column default, twice in one millisecond
CREATE TABLE public.made (id bigint PRIMARY KEY DEFAULT xs.xid_new(), n int);
INSERT INTO public.made (n) SELECT g FROM pg_catalog.generate_series(1, 1000) AS g;
SELECT pg_catalog.count(*) AS ids, pg_catalog.count(DISTINCT id) AS distinct_ids,
       pg_catalog.bool_and(xs.xid_time(id) OPERATOR(pg_catalog.<=) pg_catalog.clock_timestamp()) AS not_ahead
FROM public.made;
-- the time bounds at the ends, where the bodies take other branches
SELECT xs.xid_time_lower('-infinity') AS lo_ninf, xs.xid_time_upper('infinity') AS hi_inf,
       xs.xid_time_lower('2100-01-01+00') AS lo_2100, xs.xid_time_upper('2000-01-01+00') AS hi_2000;
-- and the errors, with their own messages (formatted with pg_catalog's format)
\set VERBOSITY default
SELECT xs.xid_decode('5cnEkaefSd0');
SELECT xs.xid_decode('5cnEk');
SELECT xs.xid_decode('zzzzzzzzzzz');
SELECT xs.xid_encode(-1);
SELECT xs.xid_prefix_lower('5c0');
SELECT xs.xid_prefix_lower('123456789ABC');
SELECT xs.xid_new('2100-01-01+00'::pg_catalog.timestamptz);
RESET search_path;

DROP TABLE made, got, expected_results;
SET client_min_messages = warning;
DROP SCHEMA hijack CASCADE;
RESET client_min_messages;
DROP EXTENSION xid_portable;
DROP SCHEMA xs;
