#!/usr/bin/env bash
# ci/major/restore.sh NEW DUMP BEFORE: restore a plain pg_dump of the
# fixture (ci/major/fixture.sql, dumped from an older server) into a new
# cluster of PostgreSQL NEW, where xid is installed; every value and answer
# must equal BEFORE (ci/major/values.sql on the source), and the
# extension must be at the newest version.
set -euo pipefail
cd "$(dirname "$0")/../.."
. ci/cluster.sh
. ci/check.sh
new=$1 dump=$2 before=$3
nbin=/usr/lib/postgresql/$new/bin
work=$(mktemp -d /tmp/xid-restore.XXXXXX)
chmod 711 "$work"
trap 'cluster_stop "$nbin" "$work/new"; rm -rf "$work"' EXIT
port=$(free_port)
cluster_start "$nbin" "$work/new" "$port"
psql() { "$nbin/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$work/new/sock" -p "$port" -U postgres "$@"; }
psql -d postgres -c "CREATE DATABASE fx"
psql -d fx -f "$dump" >"$work/restore.log" 2>&1 || { tail -20 "$work/restore.log"; check "restore" false; }
psql -d fx -c "ANALYZE"
psql -d fx -f ci/major/values.sql >"$work/after.txt"
check "every value and answer identical after the restore ($(wc -l <"$work/after.txt") lines)" \
	'cmp -s "$before" "$work/after.txt" || { diff "$before" "$work/after.txt" | head -20; false; }'
version=$(psql -d fx -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'")
newest=$(sed -nE "s/^default_version = '(.*)'/\1/p" xid.control)
check "the restored extension is the newest version ($version)" '[ "$version" = "$newest" ]'
