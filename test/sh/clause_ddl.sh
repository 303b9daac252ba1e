#!/usr/bin/env bash
# test/sh/clause_ddl.sh: function DDL in one session while others plan
# queries with xid clauses, as a role without privileges.  Every CREATE OR
# REPLACE FUNCTION invalidates every backend's pg_proc caches, which the
# extension's catalog caches (src/xid_catcache.c) listen to; a backend
# takes those invalidations at any catalog access, also between two uses of
# a cache entry inside the planner support.  So the planning sessions open
# a new connection for each query (cold caches: their catalog lookups take
# locks, where invalidations are processed) and use a clause whose
# collation is looked up after the clause function (LIKE ... COLLATE
# "POSIX").  Each query must return the right count (a wrong one is a
# division by zero, which aborts pgbench); no backend may crash.  Under
# ci/assert.sh (AddressSanitizer) a stale pointer is a report; with
# XID_DISCARD_CACHES the regression tests hit the same window every time.
#
# Called by ci/suite.sh with XID_BINDIR, XID_WORK and PG* of a running
# cluster (PGUSER a superuser).
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/check.sh
bindir=$XID_BINDIR
work=$XID_WORK
seconds=${XID_CLAUSE_DDL_SECONDS:-8}
mkdir -p "$work"
chmod 711 "$work"
su=${PGUSER:-postgres}
as() # ROLE DB [psql args]
{
	local role=$1 db=$2
	shift 2
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -U "$role" -d "$db" "$@"
}
cleanup()
{
	as "$su" postgres -c "DROP DATABASE IF EXISTS xid_clause_ddl" \
		-c "DROP ROLE IF EXISTS xcd_owner" -c "DROP ROLE IF EXISTS xcd_user" >/dev/null 2>&1 || true
}
trap cleanup EXIT
cleanup
as "$su" postgres <<'SQL'
CREATE ROLE xcd_owner LOGIN;
CREATE ROLE xcd_user LOGIN;
CREATE DATABASE xid_clause_ddl OWNER xcd_owner;
SQL
as xcd_owner xid_clause_ddl <<'SQL'
CREATE EXTENSION xid;
CREATE TABLE t (id public.xid PRIMARY KEY);
INSERT INTO t SELECT public.xid_new('2025-06-01+00'::timestamptz + g * interval '17 minutes')
FROM generate_series(1, 20000) AS g;
ANALYZE t;
GRANT SELECT ON t TO xcd_user;
SQL
read -r n_like n_prefix n_time n_range <<<"$(as xcd_owner xid_clause_ddl -F ' ' -c "
	SELECT (SELECT count(*) FROM t WHERE id::text LIKE '5C%'),
	       (SELECT count(*) FROM t WHERE left(id::text, 3) = '5D1'),
	       (SELECT count(*) FROM t WHERE public.xid_time(id) >= '2025-09-01+00'),
	       (SELECT count(*) FROM t WHERE left(id::text, 2) = '5E')")"
check "the expected counts are not trivial ($n_like $n_prefix $n_time $n_range)" \
	'[ "$n_like" -gt 0 ] && [ "$n_prefix" -gt 0 ] && [ "$n_time" -gt 0 ] && [ "$n_time" -lt 20000 ]'

cat >"$work/ddl.sql" <<'SQL'
CREATE OR REPLACE FUNCTION pg_temp.f(int) RETURNS int LANGUAGE sql AS 'SELECT $1';
SQL
cat >"$work/plan.sql" <<SQL
SELECT CASE WHEN count(*) = $n_like THEN 1 ELSE 1 / (0 * count(*))::int END FROM t WHERE id LIKE '5C%' COLLATE "POSIX";
SELECT CASE WHEN count(*) = $n_prefix THEN 1 ELSE 1 / (0 * count(*))::int END FROM t WHERE id ^@ '5D1';
SELECT CASE WHEN count(*) = $n_time THEN 1 ELSE 1 / (0 * count(*))::int END FROM t WHERE id >= '2025-09-01+00'::timestamptz;
SELECT CASE WHEN count(*) = $n_range THEN 1 ELSE 1 / (0 * count(*))::int END FROM t WHERE id <@ public.xid_prefix_range('5E');
SQL
"$bindir/pgbench" -n -U xcd_user -c 1 -T "$seconds" -f "$work/ddl.sql" xid_clause_ddl >"$work/ddl.log" 2>&1 &
ddl=$!
rc=0
"$bindir/pgbench" -n -C -U xcd_user -c 3 -j 3 -T "$seconds" -f "$work/plan.sql" xid_clause_ddl >"$work/plan.log" 2>&1 || rc=$?
wait "$ddl" || { cat "$work/ddl.log"; check "the DDL session ran to its end" false; }
ddl_tx=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$work/ddl.log")
plan_tx=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$work/plan.log")
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/plan.log" | tail -20
check "xcd_user: $plan_tx new sessions planned 4 xid clauses each, every count right, during $ddl_tx CREATE OR REPLACE FUNCTION" \
	'[ "$rc" -eq 0 ] && [ "${plan_tx:-0}" -gt 0 ] && [ "${ddl_tx:-0}" -gt 0 ]'
out=$(as "$su" postgres -c "SELECT 1")
check "the server is up" '[ "$out" = 1 ]'
