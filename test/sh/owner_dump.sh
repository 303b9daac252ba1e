#!/usr/bin/env bash
# test/sh/owner_dump.sh: a database owner who is not a superuser dumps and
# restores their database when a superuser installed the extension there
# (a provider's usual setup), as those roles themselves.
#
# - dora owns three databases; the superuser installed xid in them: 1.1
#   directly, 1.0 then ALTER EXTENSION xid UPDATE, and 1.1 in a template
#   that dora's restore target is copied from (the extension is there
#   before the restore, as with template1).
# - dora makes ids, runs pg_dump, creates a database, runs pg_restore
#   --exit-on-error into it: the data is the same, the durable mark is
#   restored, and new ids are above the restored ones.  Into the copy of
#   the template with --no-comments: COMMENT ON EXTENSION needs the
#   extension's owner, which she is not there (core's rule, for any
#   extension installed before a restore).
# - eve, another role without privileges, still may not read or move the
#   mark.
#
# Called by ci/suite.sh with XID_BINDIR, XID_WORK and PG* of a running
# cluster (PGUSER a superuser).
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/check.sh
bindir=$XID_BINDIR
work=$XID_WORK
mkdir -p "$work"
chmod 711 "$work"
export PGDATABASE=postgres
su=${PGUSER:-postgres}
as() # ROLE DB [psql args]: a session of ROLE, errors stop it
{
	local role=$1 db=$2
	shift 2
	"$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -U "$role" -d "$db" "$@"
}
try() # ROLE DB SQL: the error a statement gives (empty when it succeeds)
{
	{ "$bindir/psql" -X -q -At -v ON_ERROR_STOP=1 -U "$1" -d "$2" -c "$3" 2>&1 >/dev/null || true; } |
		sed -n 's/^[^:]*ERROR:  //p' | head -1
}
dbs="xod_new xod_new_r xod_upd xod_upd_r xod_tpl xod_tpl_src xod_tpl_r"
cleanup()
{
	local db
	as "$su" postgres -c "UPDATE pg_database SET datistemplate = false WHERE datname = 'xod_tpl'" >/dev/null 2>&1 || true
	for db in $dbs; do as "$su" postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; done
	as "$su" postgres -c "DROP ROLE IF EXISTS xod_dora" -c "DROP ROLE IF EXISTS xod_eve" >/dev/null 2>&1 || true
}
trap cleanup EXIT
cleanup

as "$su" postgres <<'SQL'
CREATE ROLE xod_dora LOGIN CREATEDB;
CREATE ROLE xod_eve LOGIN;
CREATE DATABASE xod_new OWNER xod_dora;
CREATE DATABASE xod_upd OWNER xod_dora;
CREATE DATABASE xod_tpl OWNER xod_dora;
CREATE DATABASE xod_tpl_src OWNER xod_dora;
SQL
# the superuser installs the extension
as "$su" xod_new -c "CREATE EXTENSION xid"
as "$su" xod_upd -c "CREATE EXTENSION xid VERSION '1.0'" -c "ALTER EXTENSION xid UPDATE"
as "$su" xod_tpl -c "CREATE EXTENSION xid"
as "$su" xod_tpl_src -c "CREATE EXTENSION xid"
as "$su" postgres -c "ALTER DATABASE xod_tpl IS_TEMPLATE true"

# dora_round SRC DST [TEMPLATE]: dora's data, dump, new database, restore
dora_round()
{
	local src=$1 dst=$2 tpl=${3:-} out sums_src sums_dst mark_src mark_dst opts=()
	as xod_dora "$src" <<'SQL'
CREATE TABLE t (id public.xid PRIMARY KEY DEFAULT public.xid_new(), v int);
INSERT INTO t (v) SELECT g FROM generate_series(1, 1000) AS g;
SQL
	mark_src=$(as "$su" "$src" -c "SELECT last_value FROM public.xid_durable_mark")
	if ! "$bindir/pg_dump" -U xod_dora -Fc -f "$work/$src.dump" "$src" 2>"$work/$src.err"; then
		check "dora: pg_dump of $src: $(head -1 "$work/$src.err")" false
	fi
	check "dora: pg_dump of $src" true
	if [ -n "$tpl" ]; then
		# COMMENT ON EXTENSION needs the extension's owner, the superuser
		# there: core's rule for any extension installed before a restore
		opts=(--no-comments)
		as xod_dora postgres -c "CREATE DATABASE $dst TEMPLATE $tpl"
	else
		as xod_dora postgres -c "CREATE DATABASE $dst"
	fi
	if ! "$bindir/pg_restore" -U xod_dora --exit-on-error "${opts[@]}" -d "$dst" "$work/$src.dump" 2>"$work/$dst.err"; then
		check "dora: pg_restore into $dst: $(grep -m1 ERROR "$work/$dst.err")" false
	fi
	check "dora: pg_restore --exit-on-error ${opts[*]} into $dst${tpl:+ (copied from $tpl, which has the extension)}" true
	sums_src=$(as xod_dora "$src" -c "SELECT count(*), md5(string_agg(id::text || v, ',' ORDER BY id)) FROM t")
	sums_dst=$(as xod_dora "$dst" -c "SELECT count(*), md5(string_agg(id::text || v, ',' ORDER BY id)) FROM t")
	check "dora: $dst holds $src's rows ($sums_dst)" '[ "$sums_src" = "$sums_dst" ]'
	mark_dst=$(as "$su" "$dst" -c "SELECT last_value FROM public.xid_durable_mark")
	check "dora: $dst's durable mark is $src's ($mark_dst)" '[ "$mark_src" = "$mark_dst" ]'
	out=$(as xod_dora "$dst" -c "SELECT public.xid_new() > max(id) FROM t")
	check "dora: new ids in $dst are above the restored ones" '[ "$out" = t ]'
	err=$(try xod_eve "$dst" "SELECT last_value FROM public.xid_durable_mark")
	check "eve may not read $dst's mark: $err" '[[ "$err" == "permission denied for sequence xid_durable_mark" ]]'
	err=$(try xod_eve "$dst" "SELECT setval('public.xid_durable_mark', 4398046511103)")
	check "eve may not move $dst's mark: $err" '[[ "$err" == "permission denied for sequence xid_durable_mark" ]]'
}

dora_round xod_new xod_new_r
dora_round xod_upd xod_upd_r
dora_round xod_tpl_src xod_tpl_r xod_tpl
echo "owner dump and restore: 3 databases a superuser installed xid in"
