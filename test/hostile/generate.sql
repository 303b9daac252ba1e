-- test/hostile/generate.sql: the generator and the runner of the hostile-
-- argument suite (test/t/150_hostile.pl), after setup.sql, as the database
-- owner.
--
-- Every operator and every SQL-callable function of the extension is found
-- in the catalog (pg_depend), so a new one is covered without editing this
-- file.  Each gets an oracle: a PL/pgSQL function that evaluates it on its
-- parameters, where no planner support, estimator, index or pruning can
-- reach (the runner forces generic plans, so the parameters stay
-- parameters).  A query is "SELECT <count and checksum of the rows> FROM
-- <place> WHERE <context of the clause>"; its oracle is the same query with
-- the oracle in place of the operator or function.  Both must give the same
-- rows, or the query must raise the error the oracle raises.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

CREATE TABLE hostile.queries (
	qno serial PRIMARY KEY,
	what text NOT NULL,			-- the operator or function
	place text NOT NULL,
	ctx text NOT NULL,
	q text NOT NULL,			-- the query ($1: a parameter of a generic plan)
	o text NOT NULL,			-- its oracle
	ptype text,					-- the type of $1
	pval text					-- its value, as SQL
);
GRANT SELECT ON hostile.queries TO hostile_user;

-- The extension's operators and functions
CREATE VIEW hostile.members AS
SELECT d.classid, d.objid
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE e.extname = 'xid' AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e';

-- The clause in each context a query puts it in
CREATE FUNCTION hostile.contexts(clause text, OUT ctx text, OUT expr text)
RETURNS SETOF record LANGUAGE sql IMMUTABLE AS $$
	VALUES ('plain', clause),
		   ('not', format('NOT (%s)', clause)),
		   ('or', format('(%s) OR a.n = 3', clause)),
		   ('case', format('CASE WHEN %s THEN a.n >= 0 ELSE a.n < 0 END', clause))
$$;

-- One predicate: a clause, its oracle, and what its shapes need
CREATE TABLE hostile.preds (
	what text, clause text, oracle text, has_outer boolean, ptype text, pval text,
	for_functions_only boolean
);

-- one_param(kinds...): at most one argument is a parameter
CREATE FUNCTION hostile.params_ok(VARIADIC kinds text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
	SELECT count(*) FILTER (WHERE k = 'param') <= 1 FROM unnest(kinds) AS k
$$;

DO $gen$
DECLARE
	op record;
	fn record;
	ls record;
	rs record;
	nsp text;
	argtypes regtype[];
	otypes text[];
	body text;
	n int;
BEGIN
	-- operators: OP(l, r), and OP ANY/ALL (array) where an array shape of the
	-- right type exists
	FOR op IN
		SELECT o.oid, o.oprname, o.oprnamespace::regnamespace::text AS nsp,
			   o.oprleft::regtype AS l, o.oprright::regtype AS r
		FROM pg_operator o JOIN hostile.members m
			ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
		ORDER BY o.oid
	LOOP
		EXECUTE format('CREATE FUNCTION hostile.o_%s(l %s, r %s) RETURNS boolean '
					   'LANGUAGE plpgsql AS $f$BEGIN RETURN l OPERATOR(%s.%s) r; END$f$',
					   op.oid, op.l, op.r, op.nsp, op.oprname);
		EXECUTE format('CREATE FUNCTION hostile.o_any_%s(l %s, r %s[]) RETURNS boolean '
					   'LANGUAGE plpgsql AS $f$BEGIN RETURN l OPERATOR(%s.%s) ANY (r); END$f$',
					   op.oid, op.l, op.r, op.nsp, op.oprname);
		EXECUTE format('CREATE FUNCTION hostile.o_all_%s(l %s, r %s[]) RETURNS boolean '
					   'LANGUAGE plpgsql AS $f$BEGIN RETURN l OPERATOR(%s.%s) ALL (r); END$f$',
					   op.oid, op.l, op.r, op.nsp, op.oprname);
		INSERT INTO hostile.preds
		SELECT 'operator ' || op.oid::regoperator::text,
			   format('(%s) %s (%s)', l.expr, op.oprname, r.expr),
			   format('hostile.o_%s(%s, %s)', op.oid, l.expr, r.expr),
			   l.kind = 'outer' OR r.kind = 'outer',
			   CASE WHEN l.kind = 'param' THEN op.l::text WHEN r.kind = 'param' THEN op.r::text END,
			   coalesce(l.pval, r.pval), false
		FROM hostile.shapes l, hostile.shapes r
		WHERE l.typ = op.l AND r.typ = op.r AND l.kind <> 'any' AND r.kind <> 'any'
		  AND hostile.params_ok(l.kind, r.kind);
		INSERT INTO hostile.preds
		SELECT 'operator ' || op.oid::regoperator::text || ' ' || q,
			   format('(%s) %s %s (%s)', l.expr, op.oprname, q, r.expr),
			   format('hostile.o_%s_%s(%s, %s)', lower(q), op.oid, l.expr, r.expr),
			   l.kind = 'outer', CASE WHEN l.kind = 'param' THEN op.l::text END, l.pval, false
		FROM hostile.shapes l, hostile.shapes r, (VALUES ('ANY'), ('ALL')) AS qs(q)
		WHERE l.typ = op.l AND r.typ = op.r AND l.kind <> 'any' AND r.kind = 'any';
	END LOOP;

	-- functions: boolean ones are clauses as the operators are (a call of a
	-- clause function reaches the same planner support); the others are
	-- values, checked in the select list
	FOR fn IN
		SELECT p.oid, p.proname, p.pronamespace::regnamespace::text AS nsp,
			   ARRAY(SELECT unnest(p.proargtypes::regtype[])) AS args, p.prorettype::regtype AS ret,
			   p.provolatile, p.prokind
		FROM pg_proc p JOIN hostile.members m
			ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
		WHERE p.prokind IN ('f', 'a')
		  AND p.prorettype NOT IN ('internal'::regtype, 'event_trigger'::regtype,
								   'trigger'::regtype, 'void'::regtype)
		  AND NOT 'internal'::regtype = ANY (p.proargtypes::regtype[])
		ORDER BY p.oid
	LOOP
		argtypes := fn.args;
		n := coalesce(array_length(argtypes, 1), 0);
		-- PL/pgSQL takes no cstring: the oracle takes text and casts
		otypes := ARRAY(SELECT CASE WHEN t = 'cstring'::regtype THEN 'text' ELSE t::text END
						FROM unnest(argtypes) AS t);
		IF fn.prokind = 'a' THEN
			-- an aggregate: the oracle folds the array of its inputs with its
			-- transition function, which only strict ones with no initial
			-- value (min, max) allow this simply
			IF n <> 1 OR NOT EXISTS (SELECT FROM pg_aggregate a JOIN pg_proc t ON t.oid = a.aggtransfn
									  WHERE a.aggfnoid = fn.oid AND a.agginitval IS NULL
										AND t.proisstrict AND a.aggfinalfn = 0) THEN
				RAISE EXCEPTION 'hostile suite: no oracle for aggregate %', fn.oid::regprocedure;
			END IF;
			SELECT format('DECLARE s %1$s; v %1$s; BEGIN FOREACH v IN ARRAY vals LOOP '
						  'IF v IS NOT NULL THEN s := CASE WHEN s IS NULL THEN v ELSE %2$s(s, v) END; '
						  'END IF; END LOOP; RETURN s; END',
						  argtypes[1], format('%I.%I', t.pronamespace::regnamespace, t.proname))
			INTO body FROM pg_aggregate a JOIN pg_proc t ON t.oid = a.aggtransfn
			WHERE a.aggfnoid = fn.oid;
			EXECUTE format('CREATE FUNCTION hostile.f_%s(vals %s[]) RETURNS %s LANGUAGE plpgsql '
						   'AS $f$%s$f$', fn.oid, argtypes[1], fn.ret, body);
			INSERT INTO hostile.preds
			SELECT 'aggregate ' || fn.oid::regprocedure::text,
				   format('(%s.%s(%s))::text', fn.nsp, fn.proname, s.expr),
				   format('(hostile.f_%s(array_agg(%s)))::text', fn.oid, s.expr),
				   false, NULL, NULL, true
			FROM hostile.shapes s
			WHERE s.typ = argtypes[1] AND s.kind IN ('col', 'col2', 'expr', 'null', 'const');
			CONTINUE;
		END IF;

		body := format('%s.%s(%s)', fn.nsp, fn.proname,
					   (SELECT string_agg(format('$%s%s', g.j,
									CASE WHEN argtypes[g.j] = 'cstring'::regtype THEN '::cstring' END), ', ')
						FROM generate_series(1, n) AS g(j)));
		IF fn.ret = 'boolean'::regtype THEN
			EXECUTE format('CREATE FUNCTION hostile.f_%s(%s) RETURNS boolean LANGUAGE plpgsql '
						   'AS $f$BEGIN RETURN %s; END$f$',
						   fn.oid, array_to_string(otypes, ', '), body);
		ELSIF fn.ret = 'record'::regtype THEN
			-- a record of the server's state (xid_generator_status()): only
			-- its errors are compared
			EXECUTE format('CREATE FUNCTION hostile.f_%s(%s) RETURNS text LANGUAGE plpgsql '
						   'AS $f$DECLARE r record; BEGIN SELECT * INTO r FROM %s; '
						   'RETURN CASE WHEN r IS NULL THEN NULL ELSE ''row'' END; END$f$',
						   fn.oid, array_to_string(otypes, ', '), body);
		ELSE
			EXECUTE format('CREATE FUNCTION hostile.f_%s(%s) RETURNS text LANGUAGE plpgsql '
						   'AS $f$BEGIN RETURN (%s)::text; END$f$',
						   fn.oid, array_to_string(otypes, ', '), body);
		END IF;

		-- every combination of the arguments' shapes (no outer columns, no
		-- arrays for ANY, at most one parameter)
		INSERT INTO hostile.preds
		WITH RECURSIVE combo(i, exprs, oexprs, kinds, ptype, pval) AS (
			SELECT 0, ARRAY[]::text[], ARRAY[]::text[], ARRAY[]::text[], NULL::text, NULL::text
			UNION ALL
			SELECT c.i + 1, c.exprs || s.expr,
				   c.oexprs || CASE WHEN argtypes[c.i + 1] = 'cstring'::regtype
									THEN format('(%s)::text', s.expr) ELSE s.expr END,
				   c.kinds || s.kind,
				   CASE WHEN s.kind = 'param' THEN argtypes[c.i + 1]::text ELSE c.ptype END,
				   coalesce(s.pval, c.pval)
			FROM combo c JOIN hostile.shapes s ON s.typ = argtypes[c.i + 1]
			WHERE c.i < n AND s.kind NOT IN ('outer', 'any')
			  AND (s.kind <> 'param' OR c.ptype IS NULL)
		)
		SELECT CASE WHEN fn.ret = 'boolean'::regtype THEN 'function ' ELSE 'value ' END
				   || fn.oid::regprocedure::text
				   || CASE WHEN fn.provolatile = 'v' THEN ' volatile' ELSE '' END,
			   CASE WHEN fn.ret = 'boolean'::regtype
					THEN format('%s.%s(%s)', fn.nsp, fn.proname, array_to_string(exprs, ', '))
					WHEN fn.ret = 'record'::regtype
					THEN format('(CASE WHEN %s.%s(%s) IS NULL THEN NULL ELSE ''row'' END)',
								fn.nsp, fn.proname, array_to_string(exprs, ', '))
					ELSE format('(%s.%s(%s))::text', fn.nsp, fn.proname, array_to_string(exprs, ', ')) END,
			   format('hostile.f_%s(%s)', fn.oid, array_to_string(oexprs, ', ')),
			   false, ptype, pval, fn.ret <> 'boolean'::regtype
		FROM combo WHERE combo.i = n;
	END LOOP;
END
$gen$;

-- The queries: each predicate in each place (the values of the functions
-- only in the places marked for them) and each context.  A value is
-- checked by its count of non-NULL results and a checksum of them (their
-- count only for a volatile function).
INSERT INTO hostile.queries (what, place, ctx, q, o, ptype, pval)
SELECT p.what, pl.name, c.ctx,
	   replace(t.tmpl, '@@', c.expr),
	   replace(replace(t.tmpl, '@@', oc.expr), '$1', format('(%s)::%s', p.pval, p.ptype)),
	   p.ptype, p.pval
FROM hostile.preds p
CROSS JOIN hostile.places pl
CROSS JOIN LATERAL hostile.contexts(p.clause) AS c
JOIN LATERAL hostile.contexts(p.oracle) AS oc ON oc.ctx = c.ctx
CROSS JOIN LATERAL (SELECT CASE
		WHEN p.has_outer THEN
			format('SELECT concat_ws('','', count(*), sum(a.k * 100 + b.k)) FROM hostile.%I a JOIN hostile.aux b ON @@', pl.name)
		ELSE
			format('SELECT concat_ws('','', count(*), sum(a.k)) FROM hostile.%I a WHERE @@', pl.name)
		END AS tmpl) t
WHERE NOT p.for_functions_only;

INSERT INTO hostile.queries (what, place, ctx, q, o, ptype, pval)
SELECT p.what, pl.name, 'value',
	   format(t.tmpl, p.clause, pl.name),
	   replace(format(t.tmpl, p.oracle, pl.name), '$1', format('(%s)::%s', p.pval, p.ptype)),
	   p.ptype, p.pval
FROM hostile.preds p
CROSS JOIN hostile.places pl
CROSS JOIN LATERAL (SELECT CASE
		WHEN p.what LIKE 'aggregate %' THEN 'SELECT %s FROM hostile.%I a'
		WHEN p.what LIKE '% volatile' THEN 'SELECT concat_ws('','', count(*), count(%s)) FROM hostile.%I a'
		ELSE 'SELECT concat_ws('','', count(*), sum(hashtext((%s) COLLATE "C")::bigint)) FROM hostile.%I a'
		END AS tmpl) t
WHERE p.for_functions_only AND pl.for_functions;

-- The runner, as the role that queries (row security applies to it):
-- queries lo..hi, each with its oracle.  outcome: same (same rows), both
-- (the same error from both), oracle (only the oracle raised an error: the
-- query never evaluated the row that raises it, as an index scan skips
-- rows), wrong (other rows), unexpected (an error the oracle did not raise,
-- or another one).  discard: each query planned and run with
-- debug_discard_caches = 1 (an assert-enabled server; the role needs SET on
-- it), so that a pointer into a cache kept across a catalog access is
-- caught.
CREATE FUNCTION hostile.run(lo int, hi int, discard boolean DEFAULT false,
						   OUT qno int, OUT outcome text, OUT detail text)
RETURNS SETOF record LANGUAGE plpgsql AS $run$
DECLARE
	qr record;
	res_q text;
	res_o text;
	err_q text;
	err_o text;
	msg_q text;
BEGIN
	FOR qr IN SELECT * FROM hostile.queries q WHERE q.qno BETWEEN lo AND hi ORDER BY q.qno
	LOOP
		res_q := NULL; res_o := NULL; err_q := NULL; err_o := NULL; msg_q := NULL;
		DEALLOCATE ALL;
		BEGIN
			-- with discard, every catalog access while the query is planned
			-- and run empties the caches; not while the oracle runs (it is
			-- no xid code, and would take most of the time).  An error
			-- rolls the setting back with the block.
			IF discard THEN
				PERFORM set_config('debug_discard_caches', '1', false);
			END IF;
			IF qr.ptype IS NOT NULL THEN
				EXECUTE format('PREPARE hostile_q(%s) AS %s', qr.ptype, qr.q);
				EXECUTE format('EXECUTE hostile_q(%s)', qr.pval) INTO res_q;
			ELSE
				EXECUTE qr.q INTO res_q;
			END IF;
		EXCEPTION WHEN OTHERS THEN
			err_q := SQLSTATE;
			msg_q := SQLERRM;
		END;
		IF discard THEN
			PERFORM set_config('debug_discard_caches', '0', false);
		END IF;
		BEGIN
			EXECUTE qr.o INTO res_o;
		EXCEPTION WHEN OTHERS THEN
			err_o := SQLSTATE;
		END;
		qno := qr.qno;
		IF err_q IS NULL AND err_o IS NULL THEN
			outcome := CASE WHEN res_q IS NOT DISTINCT FROM res_o THEN 'same' ELSE 'wrong' END;
			detail := format('query %s, oracle %s', res_q, res_o);
		ELSIF err_q IS NULL THEN
			outcome := 'oracle';
			detail := err_o;
		ELSIF err_q = err_o THEN
			outcome := 'both';
			detail := err_q;
		ELSE
			outcome := 'unexpected';
			detail := format('query raised %s (%s), oracle %s', err_q, msg_q,
							 coalesce('raised ' || err_o, 'gave ' || res_o));
		END IF;
		RETURN NEXT;
	END LOOP;
	DEALLOCATE ALL;
END
$run$;
GRANT EXECUTE ON FUNCTION hostile.run(int, int, boolean) TO hostile_user;
