#!/usr/bin/env bash
# ci/major/pg_upgrade.sh OLD NEW: pg_upgrade a cluster that uses xid
# everywhere (ci/major/fixture.sql, made with xid 1.0) from PostgreSQL OLD
# to NEW, in a chroot that holds both (ci/chroot.sh 19 holds 18 and 19,
# and the suite has installed xid for NEW).  Afterwards: amcheck clean on
# every btree index, every value and every answer of the view, the function
# and the other indexes identical, the extension updates to the newest
# version, and xid_new() continues above the last id made before.  In a
# database at the newest version the durable mark comes along: with the
# new server's clock an hour behind the old one's, new ids are above the
# old ones.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$(pwd)
. ci/cluster.sh
. ci/check.sh
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

port=$(free_port)
cluster_start "$obin" "$work/old" "$port"
psql() { "$1/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$2/sock" -p "$port" -U postgres "${@:3}"; }
psql "$obin" "$work/old" -d postgres -c "CREATE DATABASE fx"
psql "$obin" "$work/old" -d fx -v xid_version=1.0 -f ci/major/fixture.sql
psql "$obin" "$work/old" -d fx -f ci/major/values.sql >"$work/before.txt"
last=$(psql "$obin" "$work/old" -d fx -c "SELECT public.xid_new()")
# a database at the newest version: its durable mark must come along
psql "$obin" "$work/old" -d postgres -c "CREATE DATABASE marks"
psql "$obin" "$work/old" -d marks <<'SQL'
CREATE EXTENSION xid;
CREATE TABLE ids (id public.xid PRIMARY KEY DEFAULT public.xid_new(), after boolean NOT NULL);
INSERT INTO ids (after) SELECT false FROM generate_series(1, 10000);
SQL
marks_last=$(psql "$obin" "$work/old" -d marks -c "SELECT max(id) FROM ids")
marks_mark=$(psql "$obin" "$work/old" -d marks -c "SELECT last_value FROM public.xid_durable_mark")
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

psql "$nbin" "$work/new" -d fx -f ci/major/values.sql >"$work/after.txt"
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
psql "$nbin" "$work/new" -d fx -f ci/major/values.sql >"$work/updated.txt"
check "values unchanged by the update" 'cmp -s "$work/before.txt" "$work/updated.txt"'
above=$(psql "$nbin" "$work/new" -d fx -c "SELECT public.xid_new() > '$last'::public.xid")
check "xid_new() continues above the last id made before the upgrade" '[ "$above" = t ]'

# the durable mark came along, and with the server's clock an hour behind
# the old one's (libfaketime), new ids are above every id of before.  (A
# database at 1.0 before had no mark: its ids are above the old ones only
# once the clock has passed them, as checked above.)
cluster_stop "$nbin" "$work/new"
faketime=$(faketime_env || true)
check "libfaketime is installed" '[ -n "$faketime" ]'
runuser -u postgres -- env $faketime FAKETIME="-3600" \
	"$nbin/pg_ctl" -D "$work/new/data" -l "$work/new/server.log" -w -t 60 start >/dev/null ||
	{ tail -20 "$work/new/server.log"; exit 1; }
mark=$(psql "$nbin" "$work/new" -d marks -c "SELECT last_value FROM public.xid_durable_mark")
check "the durable mark came along ($mark)" '[ "$mark" = "$marks_mark" ] && [ "$mark" -gt 0 ]'
psql "$nbin" "$work/new" -d marks -c "INSERT INTO ids (after) SELECT true FROM generate_series(1, 10000)"
read -r low ahead <<<"$(psql "$nbin" "$work/new" -d marks -F ' ' -c "
	SELECT min(id), round(extract(epoch FROM public.xid_time(min(id)) - clock_timestamp()))
	FROM ids WHERE after")"
above=$(psql "$nbin" "$work/new" -d marks -c "SELECT '$low'::public.xid > '$marks_last'::public.xid AND (SELECT count(*) = count(DISTINCT id) FROM ids)")
check "clock 1 h back after the upgrade: 10,000 new ids ${ahead} s ahead of it, above every id of before" \
	'[ "$above" = t ] && [ "$ahead" -ge 3500 ]'
