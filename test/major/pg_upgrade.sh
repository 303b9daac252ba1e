#!/usr/bin/env bash
# test/major/pg_upgrade.sh OLD NEW: pg_upgrade a cluster that uses xid
# everywhere (test/major/fixture.sql, made with xid 1.0) from PostgreSQL OLD
# to NEW, in a chroot that holds both (test/chroot.sh 19 holds 18 and 19,
# and the suite has installed xid for NEW).  Afterwards: amcheck clean on
# every btree index, every value and every answer of the view, the function
# and the other indexes identical, the extension updates to the newest
# version, and xid_new() continues above the last id made before.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$(pwd)
. test/cluster.sh
. test/check.sh
old=$1 new=$2
obin=/usr/lib/postgresql/$old/bin
nbin=/usr/lib/postgresql/$new/bin
work=$(mktemp -d /tmp/xid-upgrade.XXXXXX)
chmod 711 "$work"
trap 'cluster_stop "$obin" "$work/old"; cluster_stop "$nbin" "$work/new"; rm -rf "$work"' EXIT


# xid for the old version too (the suite installed it for the new one)
build=$(mktemp -d /tmp/xid-build-old.XXXXXX)
cp -a "$top/." "$build/"
make -s -C "$build" clean >/dev/null 2>&1
make -s -C "$build" PG_CONFIG="$obin/pg_config" install >"$work/build-old.log" 2>&1 || {
	cat "$work/build-old.log"
	exit 1
}
rm -rf "$build"

port=$(free_port 58300)
cluster_start "$obin" "$work/old" "$port"
psql() { "$1/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$2/sock" -p "$port" -U postgres "${@:3}"; }
psql "$obin" "$work/old" -d postgres -c "CREATE DATABASE fx"
psql "$obin" "$work/old" -d fx -v xid_version=1.0 -f test/major/fixture.sql
psql "$obin" "$work/old" -d fx -f test/major/values.sql >"$work/before.txt"
last=$(psql "$obin" "$work/old" -d fx -c "SELECT public.xid_new()")
version=$(psql "$obin" "$work/old" -d fx -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'")
echo "  PostgreSQL $old: xid $version, $(wc -l <"$work/before.txt") lines of values, last id $last"
cluster_stop "$obin" "$work/old"

# a new cluster like the old one, upgraded in place of starting it
cluster_init "$nbin" "$work/new" "$port"
mkdir -p "$work/run"
chown postgres: "$work/run"
if ! (cd "$work/run" && runuser -u postgres -- "$nbin/pg_upgrade" \
	-b "$obin" -B "$nbin" -d "$work/old/data" -D "$work/new/data" -U postgres \
	--socketdir="$work/run" -p $((port + 1)) -P $((port + 2)) >"$work/pg_upgrade.log" 2>&1); then
	cat "$work/pg_upgrade.log"
	find "$work/new/data" -name '*.txt' -path '*pg_upgrade_output*' -exec cat {} + 2>/dev/null | tail -40
	check "pg_upgrade $old -> $new" false
fi
check "pg_upgrade $old -> $new" true
cluster_run "$nbin" "$work/new"

psql "$nbin" "$work/new" -d fx -f test/major/values.sql >"$work/after.txt"
check "every value and answer identical after the upgrade ($(wc -l <"$work/after.txt") lines)" \
	'cmp -s "$work/before.txt" "$work/after.txt" || { diff "$work/before.txt" "$work/after.txt" | head -20; false; }'
checked=$(psql "$nbin" "$work/new" -d fx -c "
	SELECT count(bt_index_check(c.oid, true))
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
	JOIN pg_namespace n ON n.oid = c.relnamespace
	WHERE a.amname = 'btree' AND c.relkind = 'i' AND n.nspname = 'public'")
check "amcheck: $checked btree indexes clean, heap included" '[ "$checked" -ge 6 ]'
psql "$nbin" "$work/new" -d fx -c "ALTER EXTENSION xid UPDATE"
version=$(psql "$nbin" "$work/new" -d fx -c "SELECT extversion FROM pg_extension WHERE extname = 'xid'")
newest=$(sed -nE "s/^default_version = '(.*)'/\1/p" xid.control)
check "the extension updates to the newest version ($version)" '[ "$version" = "$newest" ]'
psql "$nbin" "$work/new" -d fx -f test/major/values.sql >"$work/updated.txt"
check "values unchanged by the update" 'cmp -s "$work/before.txt" "$work/updated.txt"'
above=$(psql "$nbin" "$work/new" -d fx -c "SELECT public.xid_new() > '$last'::public.xid")
check "xid_new() continues above the last id made before the upgrade" '[ "$above" = t ]'
