#!/usr/bin/env bash
# test/sh/sqlsmith.sh: sqlsmith's random queries against a database of xid
# tables, indexes, partitions, views and a domain (test/sqlsmith-setup.sql)
# owned by a role without superuser, on a server of its own with the library
# preloaded.  sqlsmith's own errors (most of its queries) are fine; an
# assertion failure, a sanitizer report or a crash in the server's log
# (cluster.sh's server_reports) fails the test, and the whole query of each
# process that died is printed and kept in $XID_WORK/crashes.sql.
#
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR and XID_WORK (and by
# ci/assert.sh, with XID_SANITIZER_DIR and more queries).
#   XID_SQLSMITH_QUERIES  how many queries (default 5000)
#   XID_SQLSMITH_SEED     sqlsmith's seed (default: a random one, printed)
set -uo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh

bindir=$XID_BINDIR
work=$XID_WORK
n=${XID_SQLSMITH_QUERIES:-5000}
seed=${XID_SQLSMITH_SEED:-$((RANDOM * 32768 + RANDOM))}

if [ -n "${XID_SANITIZE:-}" ] && [ -z "${XID_SQLSMITH_STANDALONE:-}" ]; then
	echo "ci/assert.sh runs sqlsmith on its own, with more queries"
	exit 77
fi
if ! command -v sqlsmith >/dev/null; then
	echo "sqlsmith is not installed (ci/chroot.sh and ci/matrix.sh install it)"
	exit 1
fi
mkdir -p "$work"
chmod 755 "$work"
port=$(free_port)
trap 'cluster_stop "$bindir" "$work/cluster"' EXIT
# sqlsmith's own errors left out of the log
cluster_start "$bindir" "$work/cluster" "$port" "shared_preload_libraries = 'xid'" \
	"log_min_messages = log" "log_min_error_statement = panic" || {
	echo "FAIL sqlsmith: start a cluster"
	exit 1
}
psql=("$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$work/cluster/sock" -p "$port")
# sqlsmith writes type names unqualified: with public ahead of pg_catalog,
# its "xid" is ours
if ! "${psql[@]}" -U postgres -d postgres >"$work/setup.log" 2>&1 <<'SQL' ||
CREATE ROLE smith LOGIN;
CREATE DATABASE smith OWNER smith;
ALTER ROLE smith SET search_path = public, pg_catalog;
\c smith
CREATE EXTENSION xid;
SQL
	! "${psql[@]}" -U smith -d smith -f test/sqlsmith-setup.sql >>"$work/setup.log" 2>&1; then
	cat "$work/setup.log"
	echo "FAIL sqlsmith: create the database it plays with"
	exit 1
fi

# every query to queries.sql, each ending in ";" (sqlsmith chooses what to
# generate by what failed before, so a seed alone does not give the queries
# back)
sqlsmith --target="host=$work/cluster/sock port=$port dbname=smith user=smith" \
	--exclude-catalog --max-queries="$n" --seed="$seed" --verbose --dump-all-queries \
	>"$work/queries.sql" 2>"$work/sqlsmith.out"
rc=$?
cluster_stop "$bindir" "$work/cluster"
queries=$(sed -nE 's/^queries: ([0-9]+).*/\1/p' "$work/sqlsmith.out" | tail -1)
if server_reports "${XID_SANITIZER_DIR:-$work/no-sanitizer}" "$work/cluster/server.log" >"$work/reports.txt" &&
	[ "$rc" -eq 0 ]; then
	echo "ok   sqlsmith: ${queries:-?} queries (seed $seed): no assertion failure, sanitizer report or crash"
	rm -f "$work/queries.sql"
	exit 0
fi
sed 's/^/    /' "$work/reports.txt"
tail -5 "$work/sqlsmith.out" | sed 's/^/    /'
# The log has the first 1,023 bytes of the query of a process that died
# (continued lines after a tab): the whole query is the one in queries.sql
# that starts with them.
awk 'FNR == NR {
		if (grab && /^\t/) { p = p "\n" substr($0, 2); next }
		if (grab) { prefix[n++] = p; grab = 0 }
		if ((i = index($0, "Failed process was running: ")) > 0) { p = substr($0, i + 28); grab = 1 }
		next
	}
	FNR == 1 && grab { prefix[n++] = p; grab = 0 }
	{ q = (q == "" ? $0 : q "\n" $0) }
	/;$/ { for (k = 0; k < n; k++) if (index(q, prefix[k]) == 1) { print q; print ""; break } q = "" }' \
	"$work/cluster/server.log" "$work/queries.sql" >"$work/crashes.sql"
if [ -s "$work/crashes.sql" ]; then
	echo "    ---- the queries of the processes that died (in $work/crashes.sql)"
	head -100 "$work/crashes.sql" | sed 's/^/    /'
fi
echo "FAIL sqlsmith: ${queries:-?} queries (seed $seed), sqlsmith exited with $rc"
exit 1
