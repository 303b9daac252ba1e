-- portable/xid_portable.sql: xid ids in plain SQL and PL/pgSQL, for servers
-- where the C extension cannot be installed (managed PostgreSQL).
--
-- The same ids as the xid extension, stored as bigint: the 64-bit payload
-- (42 bits of milliseconds since 2011-11-11 11:11:11.111 UTC, then 22 low
-- bits) as a signed 64-bit integer.  Payloads up to 2^63-1, that is ids
-- made before 2081-07-18 02:58:46.663 UTC, keep their order as bigint; the
-- functions reject anything beyond that instead of wrapping.
--
-- Install it either way (PostgreSQL 15 or later, no superuser, no C):
--   * as a plain script into the schema you choose:
--       CREATE SCHEMA xid_portable;
--       SET search_path = xid_portable;
--       \i portable/xid_portable.sql        (or paste this file)
--   * as the SQL-only extension xid_portable (this file is its script):
--       CREATE EXTENSION xid_portable SCHEMA xid_portable;
--
-- Every object is created in the schema CREATE puts objects into (the first
-- existing schema of search_path).  Calls between these functions are bound
-- when they are created (SQL-standard function bodies, BEGIN ATOMIC), and
-- the PL/pgSQL functions call only built-in functions, so the functions work
-- whatever search_path their callers have.
--
-- A PL/pgSQL body is resolved with the caller's search_path, so in those
-- bodies every operator is written OPERATOR(pg_catalog.op), every function
-- pg_catalog.name and every type that is not a keyword pg_catalog.type.
-- Otherwise an operator such as bigint % integer, which pg_catalog has
-- only through an implicit cast, would run whatever exact match anyone who
-- can create in a schema on the caller's path made (or any operator at
-- all, with pg_catalog put after that schema).  Not SET search_path on the
-- functions: that would cost a configuration change and a new search path
-- at every call (BENCHMARKS.md).  OPERATOR() has one precedence for every
-- operator, so the bodies parenthesize.
--
-- SQLSTATEs are those of the C type: 22P02 for text that is not 11 Base58
-- symbols, 22003 for a value out of range, 22023 for a prefix of the wrong
-- length, 22008 for a time an id cannot hold.

-- The low 22 bits of xid_new(): a counter shared by every session.  CACHE 1
-- (the default) hands out values in the order sessions ask for them; CYCLE
-- wraps it after 2^22 values.
CREATE SEQUENCE xid_portable_seq
	AS bigint MINVALUE 0 MAXVALUE 4194303 START 0 CACHE 1 CYCLE;
COMMENT ON SEQUENCE xid_portable_seq IS
'the low 22 bits of xid_new() (internal)';
GRANT USAGE ON SEQUENCE xid_portable_seq TO PUBLIC;

------------------------------------------------------------------------------
-- Text
------------------------------------------------------------------------------

CREATE FUNCTION xid_encode(id bigint)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	a constant pg_catalog.text := '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
BEGIN
	IF id OPERATOR(pg_catalog.<) 0 THEN
		RAISE EXCEPTION 'bigint % is out of range for type xid', id
			USING ERRCODE = '22003',
			DETAIL = 'Only a bigint from 0 to 9223372036854775807 is an xid payload.';
	END IF;
	-- eleven symbols, most significant first: id / 58^k % 58
	RETURN pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 430804206899405824)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 7427658739644928 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 128063081718016 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 2207984167552 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 38068692544 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 656356768 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 11316496 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 195112 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 3364 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog./) 58 OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(a, ((id OPERATOR(pg_catalog.%) 58)::int OPERATOR(pg_catalog.+) 1), 1);
END
$$;
COMMENT ON FUNCTION xid_encode(bigint) IS
'the 11 Base58 symbols of an xid payload';

CREATE FUNCTION xid_decode(t text)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	a constant pg_catalog.text := '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
	head bigint;
	last int;
	bad int;
BEGIN
	IF t OPERATOR(pg_catalog.!~) '^[1-9A-HJ-NP-Za-km-z]{11}$' THEN
		bad := pg_catalog.length(substring(t FROM '^[1-9A-HJ-NP-Za-km-z]*')) OPERATOR(pg_catalog.+) 1;
		IF bad OPERATOR(pg_catalog.<=) pg_catalog.length(t) THEN
			RAISE EXCEPTION 'invalid input syntax for type xid: "%"', t
				USING ERRCODE = '22P02',
				DETAIL = pg_catalog.format('Character "%s" at position %s is not a Base58 symbol.',
										   pg_catalog.substr(t, bad, 1), bad),
				HINT = 'Base58 symbols are the digits 1 to 9 and the letters A to Z and a to z, except 0, O, I and l.';
		END IF;
		RAISE EXCEPTION 'invalid input syntax for type xid: "%"', t
			USING ERRCODE = '22P02',
			DETAIL = 'An xid is written as exactly 11 Base58 symbols.';
	END IF;
	-- the first ten symbols always fit (58^10 < 2^63); the last may not
	head := ((pg_catalog.strpos(a, pg_catalog.substr(t, 1, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 7427658739644928)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 2, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 128063081718016)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 3, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 2207984167552)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 4, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 38068692544)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 5, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 656356768::bigint)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 6, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 11316496)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 7, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 195112)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 8, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 3364)
		OPERATOR(pg_catalog.+) ((pg_catalog.strpos(a, pg_catalog.substr(t, 9, 1)) OPERATOR(pg_catalog.-) 1) OPERATOR(pg_catalog.*) 58)
		OPERATOR(pg_catalog.+) (pg_catalog.strpos(a, pg_catalog.substr(t, 10, 1)) OPERATOR(pg_catalog.-) 1);
	last := pg_catalog.strpos(a, pg_catalog.substr(t, 11, 1)) OPERATOR(pg_catalog.-) 1;
	IF head OPERATOR(pg_catalog.>) ((9223372036854775807 OPERATOR(pg_catalog.-) last) OPERATOR(pg_catalog./) 58) THEN
		RAISE EXCEPTION 'xid "%" is out of range for type bigint', t
			USING ERRCODE = '22003',
			DETAIL = 'A bigint holds the xids up to "NQm6nKp8qFC" (payload 2^63-1), made before 2081-07-18 02:58:46.663 UTC.';
	END IF;
	RETURN (head OPERATOR(pg_catalog.*) 58) OPERATOR(pg_catalog.+) last;
END
$$;
COMMENT ON FUNCTION xid_decode(text) IS
'the payload of an xid written as 11 Base58 symbols';

------------------------------------------------------------------------------
-- Time and the low bits
------------------------------------------------------------------------------

CREATE FUNCTION xid_time(id bigint)
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
	IF id OPERATOR(pg_catalog.<) 0 THEN
		RAISE EXCEPTION 'bigint % is out of range for type xid', id
			USING ERRCODE = '22003',
			DETAIL = 'Only a bigint from 0 to 9223372036854775807 is an xid payload.';
	END IF;
	-- an interval of milliseconds only (no days or months) does not depend
	-- on the time zone, so this is immutable
	RETURN '2011-11-11 11:11:11.111+00'::pg_catalog.timestamptz
		OPERATOR(pg_catalog.+) ((id OPERATOR(pg_catalog.>>) 22) OPERATOR(pg_catalog.*) interval '1 millisecond');
END
$$;
COMMENT ON FUNCTION xid_time(bigint) IS
'the instant an xid was made, to the millisecond';

CREATE FUNCTION xid_random(id bigint)
RETURNS integer
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
	IF id OPERATOR(pg_catalog.<) 0 THEN
		RAISE EXCEPTION 'bigint % is out of range for type xid', id
			USING ERRCODE = '22003',
			DETAIL = 'Only a bigint from 0 to 9223372036854775807 is an xid payload.';
	END IF;
	RETURN (id OPERATOR(pg_catalog.&) 4194303)::int;
END
$$;
COMMENT ON FUNCTION xid_random(bigint) IS
'the low 22 bits of an xid';

------------------------------------------------------------------------------
-- Generation
------------------------------------------------------------------------------

-- An id for time t (truncated to the millisecond) with low bits n from the
-- shared counter; with ordered, also above the last id this session made
-- with ordered (internal: call xid_new()).
CREATE FUNCTION xid_portable_make(t timestamptz, n bigint, ordered boolean)
RETURNS bigint
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $$
DECLARE
	ms bigint;
	id bigint;
	last bigint;
	setting pg_catalog.text;
BEGIN
	IF pg_catalog.isfinite(t) THEN
		ms := pg_catalog.floor(extract(epoch FROM t) OPERATOR(pg_catalog.*) 1000)::bigint
			OPERATOR(pg_catalog.-) 1321009871111;
	END IF;
	IF ms IS NULL OR ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 2199023255551 THEN
		RAISE EXCEPTION 'timestamp out of range for type xid'
			USING ERRCODE = '22008',
			DETAIL = 'A bigint xid holds instants from 2011-11-11 11:11:11.111 to 2081-07-18 02:58:46.662 UTC.';
	END IF;
	id := (ms OPERATOR(pg_catalog.<<) 22) OPERATOR(pg_catalog.|) (n OPERATOR(pg_catalog.&) 4194303);
	IF NOT ordered THEN
		RETURN id;
	END IF;
	-- Stay above this session's last id when the clock went back or the
	-- counter wrapped within a millisecond: the same low bits in the last
	-- id's millisecond, else in the next one.
	setting := pg_catalog.current_setting('xid_portable.last_id', true);
	IF id OPERATOR(pg_catalog.<=) (CASE WHEN setting OPERATOR(pg_catalog.<>) '' THEN setting::bigint END) THEN
		last := setting::bigint;
		ms := last OPERATOR(pg_catalog.>>) 22;
		id := (ms OPERATOR(pg_catalog.<<) 22) OPERATOR(pg_catalog.|) (n OPERATOR(pg_catalog.&) 4194303);
		IF id OPERATOR(pg_catalog.<=) last THEN
			IF ms OPERATOR(pg_catalog.=) 2199023255551 THEN
				RAISE EXCEPTION 'timestamp out of range for type xid'
					USING ERRCODE = '22008',
					DETAIL = 'A bigint xid holds instants up to 2081-07-18 02:58:46.662 UTC.';
			END IF;
			id := ((ms OPERATOR(pg_catalog.+) 1) OPERATOR(pg_catalog.<<) 22)
				OPERATOR(pg_catalog.|) (n OPERATOR(pg_catalog.&) 4194303);
		END IF;
	END IF;
	PERFORM pg_catalog.set_config('xid_portable.last_id', id::pg_catalog.text, false);
	RETURN id;
END
$$;
COMMENT ON FUNCTION xid_portable_make(timestamptz, bigint, boolean) IS
'an xid for a time and a counter value (internal: call xid_new())';

CREATE FUNCTION xid_new()
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE
BEGIN ATOMIC
	SELECT xid_portable_make(clock_timestamp(), nextval('xid_portable_seq'::regclass), true);
END;
COMMENT ON FUNCTION xid_new() IS
'a new xid: unique on this server and increasing (docs/managed.md)';

CREATE FUNCTION xid_new(t timestamptz)
RETURNS bigint
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
BEGIN ATOMIC
	SELECT xid_portable_make(t, nextval('xid_portable_seq'::regclass), false);
END;
COMMENT ON FUNCTION xid_new(timestamptz) IS
'a new xid for a given time, for backfilling (not ordered against xid_new())';

------------------------------------------------------------------------------
-- Bounds for a plain bigint btree index
--
-- Two functions for each search, not one returning int8range: on every
-- supported version "id BETWEEN lower AND upper" of constants is an index
-- range scan, while "id <@ int8range" gets no index condition before
-- PostgreSQL 17.  NULL means that no bigint id qualifies.
------------------------------------------------------------------------------

-- The closed bounds of the ids that start with a prefix of 1 to 11
-- symbols, clamped to the bigint range (internal: call xid_prefix_lower
-- and xid_prefix_upper).
CREATE FUNCTION xid_portable_prefix(p text, upper boolean)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	a constant pg_catalog.text := '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
	v numeric := 0;
	bad int;
	width numeric;
BEGIN
	IF p OPERATOR(pg_catalog.!~) '^[1-9A-HJ-NP-Za-km-z]*$' THEN
		bad := pg_catalog.length(substring(p FROM '^[1-9A-HJ-NP-Za-km-z]*')) OPERATOR(pg_catalog.+) 1;
		RAISE EXCEPTION 'invalid input syntax for xid prefix: "%"', p
			USING ERRCODE = '22P02',
			DETAIL = pg_catalog.format('Character "%s" at position %s is not a Base58 symbol.',
									   pg_catalog.substr(p, bad, 1), bad),
			HINT = 'Base58 symbols are the digits 1 to 9 and the letters A to Z and a to z, except 0, O, I and l.';
	END IF;
	IF pg_catalog.length(p) OPERATOR(pg_catalog.<) 1 OR pg_catalog.length(p) OPERATOR(pg_catalog.>) 11 THEN
		RAISE EXCEPTION 'xid prefix "%" has % symbols', p, pg_catalog.length(p)
			USING ERRCODE = '22023',
			HINT = 'A prefix has 1 to 11 Base58 symbols.';
	END IF;
	FOR i IN 1 .. pg_catalog.length(p) LOOP
		v := (v OPERATOR(pg_catalog.*) 58)
			OPERATOR(pg_catalog.+) (pg_catalog.strpos(a, pg_catalog.substr(p, i, 1)) OPERATOR(pg_catalog.-) 1);
	END LOOP;
	width := 58::numeric OPERATOR(pg_catalog.^) (11 OPERATOR(pg_catalog.-) pg_catalog.length(p));
	v := v OPERATOR(pg_catalog.*) width;
	IF v OPERATOR(pg_catalog.>) 9223372036854775807 THEN
		RETURN NULL;
	END IF;
	IF upper THEN
		RETURN least((v OPERATOR(pg_catalog.+) width) OPERATOR(pg_catalog.-) 1, 9223372036854775807)::bigint;
	END IF;
	RETURN v::bigint;
END
$$;
COMMENT ON FUNCTION xid_portable_prefix(text, boolean) IS
'the first or last bigint xid with a prefix (internal)';

CREATE FUNCTION xid_prefix_lower(p text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN xid_portable_prefix(p, false);
COMMENT ON FUNCTION xid_prefix_lower(text) IS
'the first xid that starts with the prefix, or NULL when no bigint xid does';

CREATE FUNCTION xid_prefix_upper(p text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN xid_portable_prefix(p, true);
COMMENT ON FUNCTION xid_prefix_upper(text) IS
'the last xid that starts with the prefix, or NULL when no bigint xid does';

-- The first id made at or after t, and the last made at or before t.
CREATE FUNCTION xid_time_lower(t timestamptz)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	ms bigint;
BEGIN
	IF t OPERATOR(pg_catalog.=) '-infinity' THEN
		RETURN 0;
	ELSIF t OPERATOR(pg_catalog.=) 'infinity' THEN
		RETURN NULL;
	END IF;
	ms := pg_catalog.ceil(extract(epoch FROM t) OPERATOR(pg_catalog.*) 1000)::bigint
		OPERATOR(pg_catalog.-) 1321009871111;
	IF ms OPERATOR(pg_catalog.>) 2199023255551 THEN
		RETURN NULL;
	END IF;
	RETURN greatest(ms, 0) OPERATOR(pg_catalog.<<) 22;
END
$$;
COMMENT ON FUNCTION xid_time_lower(timestamptz) IS
'the first xid made at or after the time, or NULL when no bigint xid is';

CREATE FUNCTION xid_time_upper(t timestamptz)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	ms bigint;
BEGIN
	IF t OPERATOR(pg_catalog.=) '-infinity' THEN
		RETURN NULL;
	ELSIF t OPERATOR(pg_catalog.=) 'infinity' THEN
		RETURN 9223372036854775807;
	END IF;
	ms := pg_catalog.floor(extract(epoch FROM t) OPERATOR(pg_catalog.*) 1000)::bigint
		OPERATOR(pg_catalog.-) 1321009871111;
	IF ms OPERATOR(pg_catalog.<) 0 THEN
		RETURN NULL;
	END IF;
	RETURN (least(ms, 2199023255551) OPERATOR(pg_catalog.<<) 22) OPERATOR(pg_catalog.|) 4194303;
END
$$;
COMMENT ON FUNCTION xid_time_upper(timestamptz) IS
'the last xid made at or before the time, or NULL when no xid is';
