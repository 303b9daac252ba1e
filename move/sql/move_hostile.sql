--
-- move_hostile: a hostile generator for the move (issue 56).  Roles: the
-- tables' owner; "nobody", an attacker with only default privileges (and a
-- schema of its own); "planter", an attacker with CREATE on the
-- application's schema; "replica", a role granted SET on
-- session_replication_role.  The attackers plant operators, functions,
-- aggregates, domains under the names of core's types, casts and
-- collations in every schema they can write; each planted routine records
-- in a canary who ran it.  Then:
--   (a) every function and procedure of xid_move called, by nobody, with
--       arguments drawn from a fixed list per type (the count of calls and
--       a histogram of SQLSTATEs);
--   (b) the procedures at top level (transaction control), by nobody;
--   (c) xid_move_trigger() attached by hand: 39P01 for every write;
--   (d) a real move, three times: as the owner, as a superuser, as the
--       replica role owning its tables, with the plants first on the
--       search_path and pg_catalog last (exact copies of core's routines
--       then win over core's);
-- and after each, the canary: no routine of one role may have run as
-- another (a "hit").  Zero crashes, zero hits.
--
\set VERBOSITY terse
SET client_min_messages = warning;
CREATE ROLE regress_xh_owner;
CREATE ROLE regress_xh_nobody;
CREATE ROLE regress_xh_planter;
CREATE ROLE regress_xh_replica;
GRANT SET ON PARAMETER session_replication_role TO regress_xh_replica;
CREATE SCHEMA app AUTHORIZATION regress_xh_owner;
GRANT USAGE, CREATE ON SCHEMA app TO regress_xh_planter;
GRANT USAGE ON SCHEMA app TO regress_xh_nobody, regress_xh_replica;
CREATE SCHEMA nobody_s AUTHORIZATION regress_xh_nobody;
CREATE SCHEMA planter_s AUTHORIZATION regress_xh_planter;
GRANT USAGE ON SCHEMA nobody_s, planter_s TO PUBLIC;
-- the test's own routines (they outlive a new session)
CREATE SCHEMA xh;
GRANT USAGE ON SCHEMA xh TO PUBLIC;
-- the canary: who ran a routine of whom
CREATE TABLE public.canary (who name, owner name, what text);
GRANT INSERT ON public.canary TO PUBLIC;
-- a hit: a routine of one role that ran as another
CREATE TABLE public.canary_log (section text, who name, owner name, what text);
-- a section's canary, kept in the log
CREATE FUNCTION xh.close(section text) RETURNS void LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
	INSERT INTO public.canary_log SELECT $1, * FROM public.canary;
	TRUNCATE public.canary;
$$;
CREATE VIEW public.canary_hits AS
	SELECT DISTINCT owner, who, what FROM public.canary WHERE who <> owner;
-- what ran, as whom (no counts: how often a check constraint runs is not
-- what is tested)
CREATE FUNCTION xh.canary_round() RETURNS TABLE (owner name, who name, what text)
LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
	SELECT x.owner, x.who, x.what FROM (SELECT DISTINCT c.owner, c.who, c.what FROM public.canary c) x
	ORDER BY x.owner, x.who, x.what COLLATE "C"
$$;

------------------------------------------------------------------------------
-- The plants
------------------------------------------------------------------------------
-- plant(schema): in that schema, a canary function of the schema's writer
-- and, under core's names, operators, functions, aggregates, domains,
-- casts and a collation, each of which calls it.  Run as the attacker.
CREATE FUNCTION xh.plant(s name) RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $plant$
DECLARE
	r record;
	n integer := 0;
	body text;
BEGIN
	EXECUTE format($f$CREATE FUNCTION %1$I.canary(what pg_catalog.text) RETURNS boolean LANGUAGE plpgsql
		SET search_path = pg_catalog, pg_temp AS $b$
		BEGIN
			INSERT INTO public.canary VALUES (current_user, %2$L, what);
			RETURN true;
		END $b$$f$, s, current_user);
	-- operators: (left, right, operator, how core's is reached)
	FOR r IN
		SELECT t.l, t.r, o.op, t.sch
		FROM (VALUES ('pg_catalog.oid', 'pg_catalog.oid', 'pg_catalog'), ('pg_catalog.int8', 'pg_catalog.int8', 'pg_catalog'),
		             ('pg_catalog.int4', 'pg_catalog.int4', 'pg_catalog'), ('pg_catalog.int2', 'pg_catalog.int2', 'pg_catalog'),
		             ('pg_catalog.int8', 'pg_catalog.int4', 'pg_catalog'), ('pg_catalog.int4', 'pg_catalog.int8', 'pg_catalog'),
		             ('pg_catalog.float8', 'pg_catalog.int4', 'pg_catalog'), ('pg_catalog.numeric', 'pg_catalog.int4', 'pg_catalog'),
		             ('pg_catalog.uuid', 'pg_catalog.uuid', 'pg_catalog'), ('pg_catalog.text', 'pg_catalog.text', 'pg_catalog'),
		             ('pg_catalog.name', 'pg_catalog.name', 'pg_catalog'), ('pg_catalog.name', 'pg_catalog.text', 'pg_catalog'),
		             ('pg_catalog.regclass', 'pg_catalog.regclass', 'pg_catalog'), ('pg_catalog.regtype', 'pg_catalog.regtype', 'pg_catalog'),
		             ('pg_catalog.interval', 'pg_catalog.interval', 'pg_catalog'), ('pg_catalog.timestamptz', 'pg_catalog.timestamptz', 'pg_catalog'),
		             ('pg_catalog.tid', 'pg_catalog.tid', 'pg_catalog'), ('pg_catalog.bool', 'pg_catalog.bool', 'pg_catalog'),
		             ('pg_catalog."char"', 'pg_catalog."char"', 'pg_catalog'), ('pg_catalog.jsonb', 'pg_catalog.jsonb', 'pg_catalog'),
		             ('public.xid', 'public.xid', 'public')) t(l, r, sch),
		     (VALUES ('='), ('<>'), ('<'), ('>'), ('<='), ('>=')) o(op)
		WHERE (t.l <> 'pg_catalog.tid' OR o.op <> '<>') AND (t.l NOT IN ('pg_catalog.jsonb', 'pg_catalog.bool') OR o.op IN ('=', '<>'))
	LOOP
		n := n + 1;
		EXECUTE format($f$CREATE FUNCTION %1$I.op_%2$s(%3$s, %4$s) RETURNS boolean LANGUAGE plpgsql
			SET search_path = pg_catalog, pg_temp AS $b$
			BEGIN
				PERFORM %1$I.canary(%5$L);
				RETURN $1 OPERATOR(%6$s.%7$s) $2;
			END $b$$f$, s, n, r.l, r.r, format('%s(%s, %s)', r.op, r.l, r.r), r.sch, r.op);
		EXECUTE format('CREATE OPERATOR %1$I.%2$s (LEFTARG = %3$s, RIGHTARG = %4$s, FUNCTION = %1$I.op_%5$s)', s, r.op, r.l, r.r, n);
	END LOOP;
	-- functions under the names of core's and xid's that the move calls:
	-- (name, arguments, result, the call of the real one)
	FOR r IN
		SELECT * FROM (VALUES
			('format', 'pg_catalog.text, pg_catalog.text', 'pg_catalog.text', 'pg_catalog.format($1, $2)'),
			('format', 'pg_catalog.text, pg_catalog.name', 'pg_catalog.text', 'pg_catalog.format($1, $2)'),
			('format', 'pg_catalog.text, pg_catalog.regclass', 'pg_catalog.text', 'pg_catalog.format($1, $2)'),
			('format', 'pg_catalog.text, pg_catalog.text, pg_catalog.text', 'pg_catalog.text', 'pg_catalog.format($1, $2, $3)'),
			('format', 'pg_catalog.text, pg_catalog.name, pg_catalog.name', 'pg_catalog.text', 'pg_catalog.format($1, $2, $3)'),
			('format', 'pg_catalog.text, pg_catalog.regclass, pg_catalog.name', 'pg_catalog.text', 'pg_catalog.format($1, $2, $3)'),
			('format', 'pg_catalog.text, pg_catalog.text, pg_catalog.regclass', 'pg_catalog.text', 'pg_catalog.format($1, $2, $3)'),
			('quote_ident', 'pg_catalog.text', 'pg_catalog.text', 'pg_catalog.quote_ident($1)'),
			('quote_ident', 'pg_catalog.name', 'pg_catalog.text', 'pg_catalog.quote_ident($1::pg_catalog.text)'),
			('quote_literal', 'pg_catalog.text', 'pg_catalog.text', 'pg_catalog.quote_literal($1)'),
			('quote_nullable', 'pg_catalog.text', 'pg_catalog.text', 'pg_catalog.quote_nullable($1)'),
			('coalesce', 'pg_catalog.text, pg_catalog.text', 'pg_catalog.text', 'pg_catalog.textcat($1, $2)'),
			('pg_relation_size', 'pg_catalog.regclass', 'pg_catalog.int8', 'pg_catalog.pg_relation_size($1)'),
			('pg_total_relation_size', 'pg_catalog.regclass', 'pg_catalog.int8', 'pg_catalog.pg_total_relation_size($1)'),
			('pg_table_size', 'pg_catalog.regclass', 'pg_catalog.int8', 'pg_catalog.pg_table_size($1)'),
			('current_setting', 'pg_catalog.text', 'pg_catalog.text', 'pg_catalog.current_setting($1)'),
			('current_setting', 'pg_catalog.text, pg_catalog.bool', 'pg_catalog.text', 'pg_catalog.current_setting($1, $2)'),
			('set_config', 'pg_catalog.text, pg_catalog.text, pg_catalog.bool', 'pg_catalog.text', 'pg_catalog.set_config($1, $2, $3)'),
			('lower', 'pg_catalog.text', 'pg_catalog.text', 'pg_catalog.lower($1)'),
			('lower', 'pg_catalog.name', 'pg_catalog.text', 'pg_catalog.lower($1::pg_catalog.text)'),
			('upper', 'pg_catalog.name', 'pg_catalog.text', 'pg_catalog.upper($1::pg_catalog.text)'),
			('left', 'pg_catalog.text, pg_catalog.int4', 'pg_catalog.text', 'pg_catalog.left($1, $2)'),
			('left', 'pg_catalog.name, pg_catalog.int4', 'pg_catalog.text', 'pg_catalog.left($1::pg_catalog.text, $2)'),
			('right', 'pg_catalog.name, pg_catalog.int4', 'pg_catalog.text', 'pg_catalog.right($1::pg_catalog.text, $2)'),
			('length', 'pg_catalog.name', 'pg_catalog.int4', 'pg_catalog.length($1::pg_catalog.text)'),
			('md5', 'pg_catalog.text', 'pg_catalog.text', 'pg_catalog.md5($1)'),
			('md5', 'pg_catalog.name', 'pg_catalog.text', 'pg_catalog.md5($1::pg_catalog.text)'),
			('now', '', 'pg_catalog.timestamptz', 'pg_catalog.now()'),
			('clock_timestamp', '', 'pg_catalog.timestamptz', 'pg_catalog.clock_timestamp()'),
			('statement_timestamp', '', 'pg_catalog.timestamptz', 'pg_catalog.statement_timestamp()'),
			('to_jsonb', 'pg_catalog.text', 'pg_catalog.jsonb', 'pg_catalog.to_jsonb($1)'),
			('to_jsonb', 'pg_catalog.name', 'pg_catalog.jsonb', 'pg_catalog.to_jsonb($1)'),
			('to_jsonb', 'pg_catalog.regclass', 'pg_catalog.jsonb', 'pg_catalog.to_jsonb($1)'),
			('pg_get_expr', 'pg_catalog.pg_node_tree, pg_catalog.oid', 'pg_catalog.text', 'pg_catalog.pg_get_expr($1, $2)'),
			('pg_get_expr', 'pg_catalog.pg_node_tree, pg_catalog.regclass', 'pg_catalog.text', 'pg_catalog.pg_get_expr($1, $2)'),
			('pg_get_indexdef', 'pg_catalog.oid', 'pg_catalog.text', 'pg_catalog.pg_get_indexdef($1)'),
			('pg_get_indexdef', 'pg_catalog.regclass', 'pg_catalog.text', 'pg_catalog.pg_get_indexdef($1)'),
			('pg_get_constraintdef', 'pg_catalog.oid', 'pg_catalog.text', 'pg_catalog.pg_get_constraintdef($1)'),
			('pg_get_triggerdef', 'pg_catalog.oid', 'pg_catalog.text', 'pg_catalog.pg_get_triggerdef($1)'),
			('obj_description', 'pg_catalog.oid, pg_catalog.name', 'pg_catalog.text', 'pg_catalog.obj_description($1, $2)'),
			('obj_description', 'pg_catalog.regclass, pg_catalog.name', 'pg_catalog.text', 'pg_catalog.obj_description($1, $2)'),
			('col_description', 'pg_catalog.oid, pg_catalog.int4', 'pg_catalog.text', 'pg_catalog.col_description($1, $2)'),
			('col_description', 'pg_catalog.regclass, pg_catalog.int2', 'pg_catalog.text', 'pg_catalog.col_description($1, $2)'),
			('format_type', 'pg_catalog.oid, pg_catalog.int4', 'pg_catalog.text', 'pg_catalog.format_type($1, $2)'),
			('format_type', 'pg_catalog.regtype, pg_catalog.int4', 'pg_catalog.text', 'pg_catalog.format_type($1, $2)'),
			('pg_has_role', 'pg_catalog.oid, pg_catalog.text', 'pg_catalog.bool', 'pg_catalog.pg_has_role($1, $2)'),
			('pg_has_role', 'pg_catalog.name, pg_catalog.oid, pg_catalog.text', 'pg_catalog.bool', 'pg_catalog.pg_has_role($1, $2, $3)'),
			('has_table_privilege', 'pg_catalog.regclass, pg_catalog.text', 'pg_catalog.bool', 'pg_catalog.has_table_privilege($1, $2)'),
			('pg_get_userbyid', 'pg_catalog.oid', 'pg_catalog.name', 'pg_catalog.pg_get_userbyid($1)'),
			('to_regclass', 'pg_catalog.text', 'pg_catalog.regclass', 'pg_catalog.to_regclass($1)'),
			('pg_partition_root', 'pg_catalog.regclass', 'pg_catalog.regclass', 'pg_catalog.pg_partition_root($1)'),
			('pg_sleep', 'pg_catalog.float8', 'void', 'pg_catalog.pg_sleep($1)'),
			('pg_advisory_xact_lock', 'pg_catalog.int8', 'void', 'pg_catalog.pg_advisory_xact_lock($1)'),
			('pg_try_advisory_xact_lock', 'pg_catalog.int8', 'pg_catalog.bool', 'pg_catalog.pg_try_advisory_xact_lock($1)'),
			('hashtext', 'pg_catalog.text', 'pg_catalog.int4', 'pg_catalog.hashtext($1)'),
			('cardinality', 'pg_catalog.name[]', 'pg_catalog.int4', 'pg_catalog.cardinality($1)'),
			('cardinality', 'pg_catalog.text[]', 'pg_catalog.int4', 'pg_catalog.cardinality($1)'),
			('array_length', 'pg_catalog.text[], pg_catalog.int4', 'pg_catalog.int4', 'pg_catalog.array_length($1, $2)'),
			('array_to_string', 'pg_catalog.text[], pg_catalog.text', 'pg_catalog.text', 'pg_catalog.array_to_string($1, $2)'),
			('concat', 'pg_catalog.text, pg_catalog.text', 'pg_catalog.text', 'pg_catalog.concat($1, $2)'),
			('replace', 'pg_catalog.text, pg_catalog.text, pg_catalog.text', 'pg_catalog.text', 'pg_catalog.replace($1, $2, $3)'),
			('substr', 'pg_catalog.text, pg_catalog.int4', 'pg_catalog.text', 'pg_catalog.substr($1, $2)'),
			('nextval', 'pg_catalog.regclass', 'pg_catalog.int8', 'pg_catalog.nextval($1)'),
			('date_part', 'pg_catalog.text, pg_catalog.interval', 'pg_catalog.float8', 'pg_catalog.date_part($1, $2)'),
			('jsonb_build_object', 'pg_catalog.text, pg_catalog.text', 'pg_catalog.jsonb', 'pg_catalog.jsonb_build_object($1, $2)'),
			('xid_new', '', 'public.xid', 'public.xid_new()'),
			('xid_from_key', 'pg_catalog.timestamptz, pg_catalog.int8', 'public.xid', 'public.xid_from_key($1, $2)'),
			('xid_from_key', 'pg_catalog.timestamptz, pg_catalog.int4', 'public.xid', 'public.xid_from_key($1, $2::pg_catalog.int8)'),
			('xid_from_key', 'pg_catalog.timestamptz, pg_catalog.uuid', 'public.xid', 'public.xid_from_key($1, $2)'),
			('xid_from_uuidv7', 'pg_catalog.uuid', 'public.xid', 'public.xid_from_uuidv7($1)'),
			('xid_from_int8', 'pg_catalog.int8', 'public.xid', 'public.xid_from_int8($1)'),
			('xid_move_settings', '', 'void', 'NULL'),
			('xid_move_xs', '', 'pg_catalog.text', '''public''')
		) f(name, args, result, real)
	LOOP
		body := CASE WHEN r.result = 'void' THEN format('PERFORM %s; RETURN;', r.real) ELSE format('RETURN %s;', r.real) END;
		EXECUTE format($f$CREATE FUNCTION %1$I.%2$I(%3$s) RETURNS %4$s LANGUAGE plpgsql
			SET search_path = pg_catalog, pg_temp AS $b$
			BEGIN
				PERFORM %1$I.canary(%5$L);
				%6$s
			END $b$$f$, s, r.name, r.args, r.result, format('%s(%s)', r.name, r.args), body);
	END LOOP;
	-- set-returning functions
	FOR r IN
		SELECT * FROM (VALUES
			('unnest', 'pg_catalog.name[]', 'pg_catalog.name'), ('unnest', 'pg_catalog.text[]', 'pg_catalog.text'),
			('unnest', 'pg_catalog.regclass[]', 'pg_catalog.regclass'), ('unnest', 'pg_catalog.oid[]', 'pg_catalog.oid'),
			('unnest', 'pg_catalog.int2[]', 'pg_catalog.int2')) f(name, args, result)
	LOOP
		EXECUTE format($f$CREATE FUNCTION %1$I.%2$I(%3$s) RETURNS SETOF %4$s LANGUAGE plpgsql
			SET search_path = pg_catalog, pg_temp AS $b$
			BEGIN
				PERFORM %1$I.canary(%5$L);
				RETURN QUERY SELECT * FROM pg_catalog.unnest($1);
			END $b$$f$, s, r.name, r.args, r.result, format('%s(%s)', r.name, r.args));
	END LOOP;
	EXECUTE format($f$CREATE FUNCTION %1$I.pg_partition_tree(pg_catalog.regclass)
		RETURNS TABLE (relid pg_catalog.regclass, parentrelid pg_catalog.regclass, isleaf pg_catalog.bool, level pg_catalog.int4)
		LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $b$
		BEGIN
			PERFORM %1$I.canary('pg_partition_tree(regclass)');
			RETURN QUERY SELECT * FROM pg_catalog.pg_partition_tree($1);
		END $b$$f$, s);
	EXECUTE format($f$CREATE FUNCTION %1$I.pg_partition_ancestors(pg_catalog.regclass) RETURNS SETOF pg_catalog.regclass
		LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $b$
		BEGIN
			PERFORM %1$I.canary('pg_partition_ancestors(regclass)');
			RETURN QUERY SELECT * FROM pg_catalog.pg_partition_ancestors($1);
		END $b$$f$, s);
	-- aggregates: a transition function that calls the canary once per group
	FOR r IN
		SELECT * FROM (VALUES
			('count', '*', 'pg_catalog.int8', '', '$1 + 1', '0'),
			('count', 'pg_catalog.text', 'pg_catalog.int8', ', pg_catalog.text', '$1 + 1', '0'),
			('count', 'pg_catalog.int8', 'pg_catalog.int8', ', pg_catalog.int8', '$1 + 1', '0'),
			('array_agg', 'pg_catalog.name', 'pg_catalog.name[]', ', pg_catalog.name', '$1 || $2', '{}'),
			('array_agg', 'pg_catalog.text', 'pg_catalog.text[]', ', pg_catalog.text', '$1 || $2', '{}'),
			('array_agg', 'pg_catalog.regclass', 'pg_catalog.regclass[]', ', pg_catalog.regclass', '$1 || $2', '{}'),
			('array_agg', 'pg_catalog.oid', 'pg_catalog.oid[]', ', pg_catalog.oid', '$1 || $2', '{}'),
			('array_agg', 'pg_catalog.int2', 'pg_catalog.int2[]', ', pg_catalog.int2', '$1 || $2', '{}'),
			('string_agg', 'pg_catalog.text, pg_catalog.text', 'pg_catalog.text', ', pg_catalog.text, pg_catalog.text',
			 'CASE WHEN $1 IS NULL THEN $2 ELSE $1 || $3 || $2 END', NULL),
			('string_agg', 'pg_catalog.name, pg_catalog.text', 'pg_catalog.text', ', pg_catalog.name, pg_catalog.text',
			 'CASE WHEN $1 IS NULL THEN $2::pg_catalog.text ELSE $1 || $3 || $2::pg_catalog.text END', NULL),
			('jsonb_agg', 'pg_catalog.jsonb', 'pg_catalog.jsonb', ', pg_catalog.jsonb', '$1 || pg_catalog.jsonb_build_array($2)', '[]'),
			('jsonb_agg', 'pg_catalog.text', 'pg_catalog.jsonb', ', pg_catalog.text', '$1 || pg_catalog.jsonb_build_array($2)', '[]'),
			('bool_and', 'pg_catalog.bool', 'pg_catalog.bool', ', pg_catalog.bool', '$1 AND $2', 'true'),
			('max', 'pg_catalog.int8', 'pg_catalog.int8', ', pg_catalog.int8', 'pg_catalog.int8larger($1, $2)', NULL),
			('sum', 'pg_catalog.int8', 'pg_catalog.int8', ', pg_catalog.int8', '$1 + $2', '0')
		) a(name, args, result, sfargs, step, init)
	LOOP
		n := n + 1;
		EXECUTE format($f$CREATE FUNCTION %1$I.agg_%2$s(%3$s%4$s) RETURNS %3$s LANGUAGE plpgsql
			SET search_path = pg_catalog, pg_temp AS $b$
			BEGIN
				IF $1 IS NOT DISTINCT FROM %5$s THEN PERFORM %1$I.canary(%6$L); END IF;
				RETURN %7$s;
			END $b$$f$, s, n, r.result, r.sfargs, coalesce(quote_literal(r.init) || '::' || r.result, 'NULL'),
			format('%s(%s)', r.name, r.args), r.step);
		EXECUTE format('CREATE AGGREGATE %1$I.%2$I(%3$s) (SFUNC = %1$I.agg_%4$s, STYPE = %5$s%6$s)',
			s, r.name, r.args, n, r.result, coalesce(', INITCOND = ' || quote_literal(r.init), ''));
	END LOOP;
	-- domains under core's type names, checked by the canary: with
	-- pg_catalog last, an unqualified type name is the attacker's
	FOR r IN
		SELECT * FROM (VALUES ('text', 'pg_catalog.text'), ('name', 'pg_catalog.name'), ('regclass', 'pg_catalog.regclass'),
		                      ('regtype', 'pg_catalog.regtype'), ('oid', 'pg_catalog.oid'), ('int8', 'pg_catalog.int8'),
		                      ('bigint', 'pg_catalog.int8'), ('int4', 'pg_catalog.int4'), ('integer', 'pg_catalog.int4'),
		                      ('int2', 'pg_catalog.int2'), ('interval', 'pg_catalog.interval'), ('bool', 'pg_catalog.bool'),
		                      ('boolean', 'pg_catalog.bool'), ('uuid', 'pg_catalog.uuid'), ('jsonb', 'pg_catalog.jsonb'),
		                      ('timestamptz', 'pg_catalog.timestamptz'), ('xid', 'public.xid'), ('xidrange', 'public.xidrange'))
		       d(name, base)
	LOOP
		EXECUTE format('CREATE DOMAIN %1$I.%2$I AS %3$s CHECK (%1$I.canary(%4$L))', s, r.name, r.base, 'domain ' || r.name);
	END LOOP;
	-- casts: only from or to a type the attacker owns (an enum), with
	-- functions that call the canary; implicit ones from the types the
	-- move passes around
	EXECUTE format('CREATE TYPE %I.planted AS ENUM (''a'')', s);
	FOR r IN
		SELECT * FROM (VALUES ('pg_catalog.text', 'IMPLICIT'), ('pg_catalog.name', 'IMPLICIT'), ('pg_catalog.regclass', 'IMPLICIT'),
		                      ('pg_catalog.int8', 'IMPLICIT'), ('pg_catalog.oid', 'ASSIGNMENT')) c(t, how)
	LOOP
		n := n + 1;
		EXECUTE format($f$CREATE FUNCTION %1$I.cast_%2$s(%3$s) RETURNS %1$I.planted LANGUAGE plpgsql
			SET search_path = pg_catalog, pg_temp AS $b$
			BEGIN
				PERFORM %1$I.canary(%4$L);
				RETURN 'a';
			END $b$$f$, s, n, r.t, format('cast(%s as planted)', r.t));
		EXECUTE format('CREATE CAST (%3$s AS %1$I.planted) WITH FUNCTION %1$I.cast_%2$s(%3$s) AS %4$s', s, n, r.t, r.how);
		n := n + 1;
		EXECUTE format($f$CREATE FUNCTION %1$I.cast_%2$s(%1$I.planted) RETURNS %3$s LANGUAGE plpgsql
			SET search_path = pg_catalog, pg_temp AS $b$
			BEGIN
				PERFORM %1$I.canary(%4$L);
				RETURN NULL;
			END $b$$f$, s, n, r.t, format('cast(planted as %s)', r.t));
		EXECUTE format('CREATE CAST (%1$I.planted AS %3$s) WITH FUNCTION %1$I.cast_%2$s(%1$I.planted) AS IMPLICIT', s, n, r.t);
	END LOOP;
	-- a collation under core's names
	EXECUTE format('CREATE COLLATION %I."C" FROM pg_catalog."C"', s);
	EXECUTE format('CREATE COLLATION %I."POSIX" FROM pg_catalog."POSIX"', s);
END
$plant$;
GRANT EXECUTE ON FUNCTION xh.plant(name) TO PUBLIC;
SET ROLE regress_xh_nobody;
SELECT xh.plant('nobody_s');
RESET ROLE;
SET ROLE regress_xh_planter;
SELECT xh.plant('planter_s');
SELECT xh.plant('app');
RESET ROLE;
-- what was planted, per schema and kind
SELECT n.nspname, o.kind, count(*) FROM pg_namespace n,
	LATERAL (SELECT CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'function' END FROM pg_proc p WHERE p.pronamespace = n.oid
	         UNION ALL SELECT 'operator' FROM pg_operator o WHERE o.oprnamespace = n.oid
	         UNION ALL SELECT 'domain' FROM pg_type t WHERE t.typnamespace = n.oid AND t.typtype = 'd'
	         UNION ALL SELECT 'collation' FROM pg_collation c WHERE c.collnamespace = n.oid
	         UNION ALL SELECT 'cast' FROM pg_cast c JOIN pg_type t ON t.oid IN (c.castsource, c.casttarget)
	                   WHERE t.typnamespace = n.oid AND t.typtype = 'e') o(kind)
WHERE n.nspname IN ('app', 'nobody_s', 'planter_s') GROUP BY 1, 2 ORDER BY 1, 2;
-- the plants work: an unqualified call with pg_catalog last runs them
SET search_path = planter_s, pg_catalog;
SELECT format('%s', 'x'::name) AS f, 1::bigint = 1::bigint AS eq, md5('a'::name) IS NOT NULL AS md5,
       (SELECT count(*) FROM pg_class WHERE false) AS count;
RESET search_path;
SELECT * FROM xh.canary_round();
SELECT xh.close('demo');

------------------------------------------------------------------------------
-- The owner's tables
------------------------------------------------------------------------------
-- tables(prefix): a parent, a partitioned child referencing it (two
-- partitions), an update trigger and a check constraint calling the
-- current role's functions, which record in the canary.  Run as the owner.
CREATE FUNCTION xh.tables(pre text) RETURNS void LANGUAGE plpgsql
SET search_path = pg_catalog, pg_temp AS $tables$
BEGIN
	EXECUTE format($f$CREATE FUNCTION app.%1$s_note_ok(n pg_catalog.text) RETURNS boolean LANGUAGE plpgsql
		SET search_path = pg_catalog, pg_temp AS $b$
		BEGIN
			INSERT INTO public.canary VALUES (current_user, %2$L, %3$L);
			RETURN n IS DISTINCT FROM 'bad';
		END $b$$f$, pre, current_user, pre || '_note_ok (check)');
	EXECUTE format($f$CREATE FUNCTION app.%1$s_touch() RETURNS trigger LANGUAGE plpgsql
		SET search_path = pg_catalog, pg_temp AS $b$
		BEGIN
			INSERT INTO public.canary VALUES (current_user, %2$L, %3$L);
			RETURN NEW;
		END $b$$f$, pre, current_user, pre || '_touch (trigger)');
	EXECUTE format('CREATE TABLE app.%1$s_accounts (id bigint PRIMARY KEY, created_at timestamptz NOT NULL,
		note text CONSTRAINT %1$s_note_ok CHECK (app.%1$s_note_ok(note)))', pre);
	EXECUTE format('CREATE TABLE app.%1$s_entries (at timestamptz NOT NULL, account_id bigint NOT NULL REFERENCES app.%1$s_accounts,
		amount integer) PARTITION BY RANGE (at)', pre);
	EXECUTE format('CREATE TABLE app.%1$s_entries_2023 PARTITION OF app.%1$s_entries FOR VALUES FROM (''2023-01-01'') TO (''2024-01-01'')', pre);
	EXECUTE format('CREATE TABLE app.%1$s_entries_2024 PARTITION OF app.%1$s_entries FOR VALUES FROM (''2024-01-01'') TO (''2025-01-01'')', pre);
	EXECUTE format('CREATE INDEX ON app.%1$s_entries (account_id)', pre);
	EXECUTE format('CREATE TRIGGER touch BEFORE UPDATE ON app.%1$s_accounts FOR EACH ROW EXECUTE FUNCTION app.%1$s_touch()', pre);
	EXECUTE format('INSERT INTO app.%1$s_accounts SELECT g, timestamptz ''2024-01-01'' + g * interval ''1 minute'', ''n'' || g
		FROM generate_series(1, 300) g', pre);
	EXECUTE format('INSERT INTO app.%1$s_entries SELECT timestamptz ''2023-10-01'' + g * interval ''1 hour'', (g - 1) %% 300 + 1, g
		FROM generate_series(1, 900) g', pre);
	EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON app.%1$s_accounts, app.%1$s_entries TO PUBLIC', pre);
END
$tables$;
GRANT EXECUTE ON FUNCTION xh.tables(text) TO PUBLIC;
SET ROLE regress_xh_owner;
SELECT xh.tables('gen');	-- the generator's target, never moved
SELECT xh.tables('r1');
SELECT xh.tables('r2');
SELECT xh.tables('r4');
CREATE VIEW app.gen_view AS SELECT * FROM app.gen_accounts;
GRANT SELECT ON app.gen_view TO PUBLIC;
RESET ROLE;
GRANT CREATE ON SCHEMA app TO regress_xh_replica;
SET ROLE regress_xh_replica;
SELECT xh.tables('r3');
RESET ROLE;
SELECT * FROM xh.canary_round();
SELECT xh.close('tables');

------------------------------------------------------------------------------
-- (a) every routine of xid_move, called by nobody with generated arguments
------------------------------------------------------------------------------
SET ROLE regress_xh_nobody;
CREATE TABLE nobody_s.mine (id bigint PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT '2024-01-01', v text);
INSERT INTO nobody_s.mine (id) SELECT generate_series(1, 50);
CREATE TABLE nobody_s.plain (id bigint PRIMARY KEY, v text);
CREATE TABLE nobody_s.gone (id bigint);
CREATE TEMP TABLE tmp (id bigint PRIMARY KEY, created_at timestamptz);
SELECT 'nobody_s.gone'::regclass::oid AS gone \gset
DROP TABLE nobody_s.gone;
RESET ROLE;
-- the values per type: an expression of the exact type, qualified (the
-- session runs with the plants first)
CREATE TABLE pg_temp.gen_values (typ regtype, ord integer, expr text);
GRANT SELECT ON pg_temp.gen_values TO PUBLIC;
INSERT INTO pg_temp.gen_values
SELECT t.typ::regtype, v.ord, v.expr FROM (VALUES
	('regclass', ARRAY['''app.gen_accounts''', '''app.gen_entries''', '''app.gen_entries_2023''', '''pg_catalog.pg_class''',
	                   :'gone' || '::pg_catalog.oid', '''app.gen_view''', '''pg_temp.tmp''', '''nobody_s.mine''',
	                   '''public.xid_move_moves''', '0', '4294967295']),
	('oid', ARRAY['''app.gen_accounts''::pg_catalog.regclass', '''pg_catalog.pg_class''::pg_catalog.regclass', :'gone', '0',
	              '4294967295', '''nobody_s.mine''::pg_catalog.regclass']),
	('text', ARRAY['''''', '''key''', '''x''''; DROP TABLE app.gen_accounts; --''', '''DROP TABLE app.gen_accounts''',
	               '''SELECT 1''', '''child''', '''parent''', '''insert''', '''delete''', '''forget_object''', '''object''',
	               '''swapped''', '''new''', '''SHARE''', '''ACCESS EXCLUSIVE''', 'pg_catalog.repeat(''x'', 10000)']),
	('name', ARRAY['''''', '''id''', '''created_at''', '''note''', '''ctid''', '''x"; DROP TABLE app.gen_accounts; --''',
	               'pg_catalog.repeat(''a'', 63)']),
	('name[]', ARRAY['''{}''', '''{id,note}''', '(SELECT pg_catalog.array_agg(''n'' || g) FROM pg_catalog.generate_series(1, 1000) g)']),
	('text[]', ARRAY['''{}''', '''{key}''', '''{NULL}''', 'ARRAY[''x''''; DROP TABLE app.gen_accounts; --'']',
	                 'ARRAY[''DROP TABLE app.gen_accounts'']', 'ARRAY[''app.gen_accounts'', ''id'', ''note'', ''x'', ''y'', ''z'']',
	                 '(SELECT pg_catalog.array_agg(g::pg_catalog.text) FROM pg_catalog.generate_series(1, 1000) g)']),
	('integer', ARRAY['-1', '0', '1', '2147483647']),
	('smallint', ARRAY['-1', '0', '1', '3', '32767']),
	('boolean', ARRAY['true', 'false']),
	('interval', ARRAY['''-1 s''', '''0''', '''1 ms''', '''100 years''']),
	('regtype', ARRAY['''bigint''', '''uuid''', '''text''', '''public.xid''', '''pg_catalog.xid''']),
	('xid_move_parts', ARRAY[$$pg_catalog.jsonb_populate_record(NULL::public.xid_move_parts, '{"tbl": "app.gen_accounts", "role": "child", "relation": "app.gen_accounts", "leaf": "app.gen_accounts", "constraint_name": "gen_accounts_pkey", "column_name": "id", "new_column": "note", "old_column": "created_at", "not_null": true, "tag": "_x''; DROP TABLE app.gen_accounts; --"}')$$]),
	('xid_move_moves', ARRAY[$$pg_catalog.jsonb_populate_record(NULL::public.xid_move_moves, '{"tbl": "app.gen_accounts", "constraint_name": "gen_accounts_pkey", "key_column": "id", "new_column": "note", "old_column": "created_at", "key_type": "int8", "fire_triggers": true}')$$]),
	('xid_move_part', ARRAY[$$pg_catalog.jsonb_populate_record(NULL::public.xid_move_part, '{"role": "child", "relation": "app.gen_accounts", "leaf": "app.gen_accounts", "column_name": "id", "constraint_name": "gen_accounts_pkey"}')$$])
) t(typ, vals), unnest(vals) WITH ORDINALITY v(expr, ord);
-- each argument NULL too (ordinal 0)
INSERT INTO pg_temp.gen_values SELECT DISTINCT typ, 0, 'NULL' FROM pg_temp.gen_values;
-- the calls: for each routine, every argument in turn through its values,
-- the others at their first value; and all NULL
CREATE TABLE pg_temp.gen_calls (proname name, n integer, stmt text);
GRANT SELECT ON pg_temp.gen_calls TO PUBLIC;
WITH r AS (
	SELECT p.oid, p.proname, p.prokind, p.pronargs, ARRAY(SELECT unnest(p.proargtypes::oid[])) AS types, p.proretset
	FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	WHERE d.classid = 'pg_proc'::regclass AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'xid_move') AND p.prokind IN ('f', 'p')
), tuple AS (
	-- (routine, which argument varies (0: none, -1: all NULL), its value)
	SELECT r.oid, 0 AS varied, 1 AS ord FROM r
	UNION ALL SELECT r.oid, -1, 0 FROM r WHERE r.pronargs > 0
	UNION ALL SELECT r.oid, i, v.ord FROM r, generate_series(1, r.pronargs) i
		JOIN pg_temp.gen_values v ON true WHERE v.typ = r.types[i] AND v.ord <> 1
), call AS (
	SELECT r.proname, r.prokind, r.proretset, t.varied, t.ord,
	       (SELECT coalesce(string_agg(format('(%s)::%s', v.expr, format_type(r.types[i], NULL)), ', ' ORDER BY i), '')
	        FROM generate_series(1, r.pronargs) i
	        JOIN pg_temp.gen_values v ON v.typ = r.types[i]
	        WHERE v.ord = CASE WHEN t.varied = -1 THEN 0 WHEN t.varied = i THEN t.ord ELSE 1 END) AS args
	FROM r JOIN tuple t ON t.oid = r.oid
)
INSERT INTO pg_temp.gen_calls
SELECT proname, row_number() OVER (ORDER BY proname, varied, ord),
       CASE WHEN prokind = 'p' THEN format('CALL public.%I(%s)', proname, args)
            ELSE format('SELECT public.%I(%s)', proname, args) END
FROM call;
-- every type of argument has values
SELECT DISTINCT format_type(t, NULL) AS type_without_values
FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid, unnest(p.proargtypes::oid[]) t
WHERE d.classid = 'pg_proc'::regclass AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'xid_move')
  AND t NOT IN (SELECT typ FROM pg_temp.gen_values);
CREATE TABLE pg_temp.gen_results (n integer, proname name, sqlstate text);
GRANT INSERT ON pg_temp.gen_results TO PUBLIC;
-- the driver: its own code runs with pg_catalog first; the calls with
-- nobody's plants, then the planter's, then pg_catalog last
CREATE FUNCTION pg_temp.generate() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	c record;
	st text;
BEGIN
	FOR c IN SELECT * FROM pg_temp.gen_calls ORDER BY n LOOP
		BEGIN
			PERFORM pg_catalog.set_config('search_path', 'nobody_s, app, public, pg_catalog', true);
			EXECUTE c.stmt;
			PERFORM pg_catalog.set_config('search_path', 'pg_catalog, public', true);
			st := 'ok';
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE;
		END;
		PERFORM pg_catalog.set_config('search_path', 'pg_catalog, public', true);
		INSERT INTO pg_temp.gen_results VALUES (c.n, c.proname, st);
	END LOOP;
END
$$;
GRANT EXECUTE ON FUNCTION pg_temp.generate() TO PUBLIC;
SET ROLE regress_xh_nobody;
SELECT pg_temp.generate();
RESET ROLE;
SELECT count(*) AS calls, count(DISTINCT proname) AS routines FROM pg_temp.gen_results;
SELECT sqlstate, count(*) FROM pg_temp.gen_results GROUP BY 1 ORDER BY 1;
-- per routine: the SQLSTATEs it answered
SELECT proname, string_agg(sqlstate || ':' || n, ' ' ORDER BY sqlstate) AS answers
FROM (SELECT proname, sqlstate, count(*) AS n FROM pg_temp.gen_results GROUP BY 1, 2) x GROUP BY 1 ORDER BY 1;
-- the owner's tables are intact
SELECT count(*) AS gen_accounts FROM app.gen_accounts;
SELECT relname FROM pg_class WHERE relnamespace = 'app'::regnamespace AND relname LIKE 'gen%' AND relkind IN ('r', 'p', 'v') ORDER BY 1;
SELECT * FROM xh.canary_round();
SELECT owner, who, what FROM public.canary_hits ORDER BY owner, who, what COLLATE "C";
SELECT xh.close('generated');

------------------------------------------------------------------------------
-- (b) the procedures at top level, by nobody (their COMMITs run): on the
-- owner's table, a catalog, a view, a dropped table, a temp table, its own
------------------------------------------------------------------------------
-- the dropped table, by a function (psql echoes what \gexec runs)
CREATE TABLE pg_temp.gone AS SELECT :'gone'::oid AS oid;
CREATE FUNCTION pg_temp.gone() RETURNS regclass LANGUAGE sql STABLE AS $$ SELECT oid::regclass FROM pg_temp.gone $$;
GRANT SELECT ON pg_temp.gone TO PUBLIC;
GRANT EXECUTE ON FUNCTION pg_temp.gone() TO PUBLIC;
SET ROLE regress_xh_nobody;
\set VERBOSITY sqlstate
-- the query runs with pg_catalog first; its first statement puts the
-- plants first for the calls
SELECT 'SET search_path = nobody_s, app, public, pg_catalog'
UNION ALL (SELECT format('CALL public.%s(%s::pg_catalog.regclass%s)', p.proname, t.expr, a.rest)
FROM (VALUES (1, 'xid_move_start', ', time_column => ''created_at'''), (2, 'xid_move_backfill', ', pause => ''-1 s'''),
             (3, 'xid_move_backfill', ', batch_blocks => 0'), (4, 'xid_move_backfill', ', batch_blocks => 2147483647, max_batches => 1'),
             (5, 'xid_move_not_null_checks', ', false, ''1 ms'', 0'), (6, 'xid_move_validate', ', lock_timeout => ''1 ms'', retries => 0'),
             (7, 'xid_move_fk_validate', ', ''1 ms'', 0'), (8, 'xid_move_swap', ', lock_timeout => ''-1 s'', retries => -1'),
             (9, 'xid_move_swap_back', ', ''1 ms'', 0'), (10, 'xid_move_record_index', ', ''app.gen_accounts'', ''x'', ''app.gen_accounts_pkey'''),
             (11, 'xid_move_finish', ', drop_old => true, retries => 0'), (12, 'xid_move_abort', ', retries => 0')) a(ord, proname, rest)
JOIN pg_proc p ON p.proname = a.proname AND p.pronamespace = 'public'::regnamespace,
     (VALUES (1, '''app.gen_accounts'''), (2, '''app.gen_entries_2024'''), (3, '''pg_catalog.pg_class'''), (4, '''app.gen_view'''),
             (5, 'pg_temp.gone()'), (6, '''pg_temp.tmp'''), (7, 'NULL')) t(ord, expr)
ORDER BY a.ord, t.ord) \gexec
\set VERBOSITY terse
RESET search_path;
RESET ROLE;
SELECT count(*) AS gen_accounts FROM app.gen_accounts;
SELECT count(*) AS moves FROM public.xid_move_moves;
SELECT * FROM xh.canary_round();
SELECT xh.close('procedures');

-- nobody's own table: a whole move, its plants first (its own routines
-- may run as nobody; none of another role's)
SET ROLE regress_xh_nobody;
SET search_path = nobody_s, app, public, pg_catalog;
CALL public.xid_move_start('nobody_s.mine', time_column => 'created_at');
CALL public.xid_move_backfill('nobody_s.mine');
SELECT * FROM public.xid_move_index_commands('nobody_s.mine') \gexec
CALL public.xid_move_validate('nobody_s.mine');
CALL public.xid_move_swap('nobody_s.mine');
CALL public.xid_move_finish('nobody_s.mine');
RESET search_path;
RESET ROLE;
SELECT format_type(atttypid, NULL) AS mine_id FROM pg_attribute WHERE attrelid = 'nobody_s.mine'::regclass AND attname = 'id';
SELECT * FROM xh.canary_round();
SELECT owner, who, what FROM public.canary_hits ORDER BY owner, who, what COLLATE "C";
SELECT xh.close('own move');

------------------------------------------------------------------------------
-- (c) xid_move_trigger() attached by hand, by nobody, on its own tables
-- (regular and temporary), with every kind and garbage: 39P01 each time
------------------------------------------------------------------------------
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text;
BEGIN
	EXECUTE stmt;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE;
	RETURN s;
END
$$;
GRANT EXECUTE ON FUNCTION pg_temp.try(text) TO PUBLIC;
CREATE FUNCTION pg_temp.triggers() RETURNS TABLE (tbl text, timing text, args text, ins text, upd text, del text)
LANGUAGE plpgsql AS $$
DECLARE
	t text;
	w text;
	a text;
BEGIN
	FOREACH t IN ARRAY ARRAY['nobody_s.plain', 'pg_temp.tmp'] LOOP
		FOREACH w IN ARRAY ARRAY['BEFORE', 'AFTER'] LOOP
			FOREACH a IN ARRAY ARRAY['', '''key''', '''back''', '''ref''', '''fix''',
			                         '''key'', ''public'', ''id'', ''v'', '''', ''int''',
			                         '''back'', ''pg_temp'', ''id'', ''v''',
			                         '''ref'', ''pg_temp'', ''pg_temp'', ''id'', ''new'', ''v'', '''', ''int'', ''id'', ''v''',
			                         '''fix'', ''nobody_s'', ''nobody_s'', ''id'', ''old'', ''v'', '''', ''int'', ''id'', ''v''',
			                         '''x''''; DROP TABLE app.gen_accounts; --''', '''key'', ''nosuch'', ''nothere'', ''-1'', ''99999''']
			LOOP
				EXECUTE pg_catalog.format('CREATE TRIGGER hostile %s INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION public.xid_move_trigger(%s)', w, t, a);
				tbl := t; timing := w; args := a;
				ins := pg_temp.try(pg_catalog.format('INSERT INTO %s (id) VALUES (1000)', t));
				upd := pg_temp.try(pg_catalog.format('UPDATE %s SET id = id + 1', t));
				del := pg_temp.try(pg_catalog.format('DELETE FROM %s', t));
				RETURN NEXT;
				EXECUTE pg_catalog.format('DROP TRIGGER hostile ON %s', t);
			END LOOP;
		END LOOP;
	END LOOP;
	-- statement level
	EXECUTE 'CREATE TRIGGER hostile AFTER INSERT ON nobody_s.plain FOR EACH STATEMENT EXECUTE FUNCTION public.xid_move_trigger(''key'')';
	tbl := 'nobody_s.plain'; timing := 'statement'; args := '''key''';
	ins := pg_temp.try('INSERT INTO nobody_s.plain (id) VALUES (1000)'); upd := NULL; del := NULL;
	RETURN NEXT;
	EXECUTE 'DROP TRIGGER hostile ON nobody_s.plain';
END
$$;
GRANT EXECUTE ON FUNCTION pg_temp.triggers() TO PUBLIC;
SET ROLE regress_xh_nobody;
INSERT INTO nobody_s.plain VALUES (1, 'a');
INSERT INTO pg_temp.tmp VALUES (1, now());
SET search_path = nobody_s, app, public, pg_catalog;
CREATE TEMP TABLE trig_results AS SELECT * FROM pg_temp.triggers();
-- called directly
SELECT pg_temp.try('SELECT public.xid_move_trigger()') AS direct;
RESET search_path;
SELECT ins, upd, del, count(*) FROM pg_temp.trig_results GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
RESET ROLE;
SELECT * FROM xh.canary_round();
SELECT xh.close('triggers');

------------------------------------------------------------------------------
-- (d) a real move of the owner's tables, the plants first on the
-- search_path of the session that runs the steps
------------------------------------------------------------------------------
-- DEFECT (kept, not hidden: the expected output records it until it is
-- fixed).  The procedures of the move (xid_move_start, _backfill,
-- _validate, _swap, _finish, _not_null_checks, _record_index, ...) cannot
-- carry SET search_path (they COMMIT), and PL/pgSQL resolves the types of
-- their DECLAREd variables (text, name, regclass, regtype, timestamptz,
-- jsonb) with the caller's search_path when it compiles them, before
-- xid_move_settings() runs.  A role with CREATE on any schema of that
-- search_path (the planter, in app) creates domains named text, name, ...
-- and their CHECK runs, as the caller, on every assignment: as the owner,
-- a superuser, the replica role.  In a session shared by roles (round 0)
-- the first caller's compilation stays: nobody's domains run as the
-- superuser although nobody_s is not on its search_path.  The fix:
-- qualify every declared type (pg_catalog.text, ...).
-- round 0: a superuser, in the session where nobody called the
-- procedures above (what PL/pgSQL compiled then is cached per session)
RESET ROLE;
SET search_path = planter_s, app, public, pg_catalog;
CALL public.xid_move_start('app.r4_accounts', time_column => 'created_at');
-- writes during the move, by the tables' owner
SET ROLE regress_xh_owner;
UPDATE app.r4_accounts SET note = 'w' WHERE id OPERATOR(pg_catalog.=) 1;
INSERT INTO app.r4_entries VALUES ('2024-06-01', 2, 1);
RESET ROLE;
CALL public.xid_move_backfill('app.r4_accounts', batch_blocks => 1);
SELECT * FROM public.xid_move_index_commands('app.r4_accounts') \gexec
CALL public.xid_move_validate('app.r4_accounts');
CALL public.xid_move_swap('app.r4_accounts');
SET ROLE regress_xh_owner;
INSERT INTO app.r4_accounts (id, created_at, note) VALUES (public.xid_new(), '2024-06-01', 'after swap');
RESET ROLE;
CALL public.xid_move_finish('app.r4_accounts');
RESET search_path;
RESET ROLE;
SELECT format_type(atttypid, NULL) AS r4_id FROM pg_attribute WHERE attrelid = 'app.r4_accounts'::regclass AND attname = 'id';
SELECT count(*) AS r4_entries_joined FROM app.r4_entries e JOIN app.r4_accounts a ON a.id = e.account_id;
SELECT * FROM xh.canary_round();
SELECT owner, who, what FROM public.canary_hits ORDER BY owner, who, what COLLATE "C";
SELECT xh.close('shared session');

-- round 1: the owner, in a new session (its triggers fire: it may not
-- set session_replication_role)
\c -
\set VERBOSITY terse
SET client_min_messages = warning;
SET ROLE regress_xh_owner;
SET search_path = planter_s, app, public, pg_catalog;
CALL public.xid_move_start('app.r1_accounts', time_column => 'created_at', fire_triggers => true);
-- writes during the move, by the tables' owner
SET ROLE regress_xh_owner;
UPDATE app.r1_accounts SET note = 'w' WHERE id OPERATOR(pg_catalog.=) 1;
INSERT INTO app.r1_entries VALUES ('2024-06-01', 2, 1);
SET ROLE regress_xh_owner;
CALL public.xid_move_backfill('app.r1_accounts', batch_blocks => 1);
SELECT * FROM public.xid_move_index_commands('app.r1_accounts') \gexec
CALL public.xid_move_validate('app.r1_accounts');
CALL public.xid_move_swap('app.r1_accounts');
SET ROLE regress_xh_owner;
INSERT INTO app.r1_accounts (id, created_at, note) VALUES (public.xid_new(), '2024-06-01', 'after swap');
SET ROLE regress_xh_owner;
CALL public.xid_move_finish('app.r1_accounts');
RESET search_path;
RESET ROLE;
SELECT format_type(atttypid, NULL) AS r1_id FROM pg_attribute WHERE attrelid = 'app.r1_accounts'::regclass AND attname = 'id';
SELECT count(*) AS r1_entries_joined FROM app.r1_entries e JOIN app.r1_accounts a ON a.id = e.account_id;
SELECT * FROM xh.canary_round();
SELECT owner, who, what FROM public.canary_hits ORDER BY owner, who, what COLLATE "C";
SELECT xh.close('owner');

-- round 2: a superuser, in a new session
\c -
\set VERBOSITY terse
SET client_min_messages = warning;
RESET ROLE;
SET search_path = planter_s, app, public, pg_catalog;
CALL public.xid_move_start('app.r2_accounts', time_column => 'created_at');
-- writes during the move, by the tables' owner
SET ROLE regress_xh_owner;
UPDATE app.r2_accounts SET note = 'w' WHERE id OPERATOR(pg_catalog.=) 1;
INSERT INTO app.r2_entries VALUES ('2024-06-01', 2, 1);
RESET ROLE;
CALL public.xid_move_backfill('app.r2_accounts', batch_blocks => 1);
SELECT * FROM public.xid_move_index_commands('app.r2_accounts') \gexec
CALL public.xid_move_validate('app.r2_accounts');
CALL public.xid_move_swap('app.r2_accounts');
SET ROLE regress_xh_owner;
INSERT INTO app.r2_accounts (id, created_at, note) VALUES (public.xid_new(), '2024-06-01', 'after swap');
RESET ROLE;
CALL public.xid_move_finish('app.r2_accounts');
RESET search_path;
RESET ROLE;
SELECT format_type(atttypid, NULL) AS r2_id FROM pg_attribute WHERE attrelid = 'app.r2_accounts'::regclass AND attname = 'id';
SELECT count(*) AS r2_entries_joined FROM app.r2_entries e JOIN app.r2_accounts a ON a.id = e.account_id;
SELECT * FROM xh.canary_round();
SELECT owner, who, what FROM public.canary_hits ORDER BY owner, who, what COLLATE "C";
SELECT xh.close('superuser');

-- round 3: the role granted SET on session_replication_role, owning its
-- tables, in a new session; its writes during the move in replica mode
-- too
\c -
\set VERBOSITY terse
SET client_min_messages = warning;
SET ROLE regress_xh_replica;
SET search_path = planter_s, app, public, pg_catalog;
CALL public.xid_move_start('app.r3_accounts', time_column => 'created_at');
-- writes during the move, by the tables' owner
SET ROLE regress_xh_replica;
UPDATE app.r3_accounts SET note = 'w' WHERE id OPERATOR(pg_catalog.=) 1;
SET session_replication_role = replica;
UPDATE app.r3_accounts SET note = 'r' WHERE id OPERATOR(pg_catalog.=) 2;
INSERT INTO app.r3_entries VALUES ('2024-06-01', 2, 1);
SET ROLE regress_xh_replica;
CALL public.xid_move_backfill('app.r3_accounts', batch_blocks => 1);
SELECT * FROM public.xid_move_index_commands('app.r3_accounts') \gexec
CALL public.xid_move_validate('app.r3_accounts');
CALL public.xid_move_swap('app.r3_accounts');
SET ROLE regress_xh_replica;
INSERT INTO app.r3_accounts (id, created_at, note) VALUES (public.xid_new(), '2024-06-01', 'after swap');
SET ROLE regress_xh_replica;
CALL public.xid_move_finish('app.r3_accounts');
RESET session_replication_role;
RESET search_path;
RESET ROLE;
SELECT format_type(atttypid, NULL) AS r3_id FROM pg_attribute WHERE attrelid = 'app.r3_accounts'::regclass AND attname = 'id';
SELECT count(*) AS r3_entries_joined FROM app.r3_entries e JOIN app.r3_accounts a ON a.id = e.account_id;
SELECT * FROM xh.canary_round();
SELECT owner, who, what FROM public.canary_hits ORDER BY owner, who, what COLLATE "C";
SELECT xh.close('replica');

------------------------------------------------------------------------------
-- The server is alive; no attacker's routine ran in any round
------------------------------------------------------------------------------
SELECT 1 AS alive;
SELECT section, owner, who, count(DISTINCT what) AS routines FROM public.canary_log WHERE who <> owner
GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SELECT count(*) AS attacker_rows_in_rounds FROM public.canary_log
WHERE section IN ('shared session', 'owner', 'superuser', 'replica') AND owner IN ('regress_xh_nobody', 'regress_xh_planter');

DROP SCHEMA app, nobody_s, planter_s, xh CASCADE;
DROP TABLE public.canary, public.canary_log CASCADE;
REVOKE SET ON PARAMETER session_replication_role FROM regress_xh_replica;
DROP ROLE regress_xh_owner, regress_xh_nobody, regress_xh_planter, regress_xh_replica;
