#!/usr/bin/env bash
# ci/chroot.sh: prepare a cached Debian chroot holding one PostgreSQL major
# version with its server, contrib and dev packages, for ci/matrix.sh.
#
# Usage: ci/chroot.sh MAJOR DIR [runtime]
#   runtime: only the server (postgresql-MAJOR), no dev packages and no
#   build tools, for installing the Debian package (ci/package.sh); 15
#   then comes from bookworm.
#   17 comes from Debian trixie, 18 from sid, 19 from sid with experimental
#   (only the PostgreSQL 19 packages, by an apt pin; 18 is installed beside
#   it for the pg_upgrade test).  DIR is reused when it holds the
#   marker written as the very last step; anything else at DIR (a half-built
#   chroot from an interrupted run) is unmounted, removed and built again.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

major=${1:?usage: chroot.sh MAJOR DIR [runtime]}
dir=${2:?usage: chroot.sh MAJOR DIR [runtime]}
flavour=${3:-build}
mirror=${XID_DEBIAN_MIRROR:-http://deb.debian.org/debian}
marker="$dir/.xid-chroot-complete"

# The names in clients/debian-packages, one a line, "#" comments, on one
# line (none when the file is missing)
client_packages()
{
	local list
	list="$(dirname "$0")/../clients/debian-packages"
	[ -f "$list" ] || return 0
	sed -e 's/#.*//' "$list" | tr -s ' \t\n' '\n' | grep -v '^$' | tr '\n' ' ' | sed 's/ $//'
}

cache=$(dirname "$dir")
# Beside the server: what users run with xid where Debian packages it for
# that version (TimescaleDB, pg_cron, pg_partman), for the TAP tests of
# partitioning by time.
extra=""
case "$major" in
	15) suite=bookworm ;;
	17) suite=trixie extra="postgresql-17-timescaledb postgresql-17-cron postgresql-17-partman" ;;
	# 18 also holds the drivers the client packages are tested with
	# (ci/clients.sh), listed in clients/debian-packages, and what
	# ci/pooler.sh and ci/ha.sh run: PgBouncer, Patroni with etcd (and
	# python3-etcd, which Patroni's etcd3 support imports), and Debian's
	# own drivers, so that those stages download nothing at run time.
	18) suite=sid extra="postgresql-18-timescaledb postgresql-18-cron postgresql-18-partman $(client_packages)
		pgbouncer patroni etcd-server python3-etcd python3-psycopg python3-psycopg-c python3-asyncpg node-pg
		golang-github-jackc-pgx-v5-dev libpostgresql-jdbc-java" ;;
	# PostgreSQL 19 is a release candidate (19~rc1) in experimental.  Once a
	# final 19 is in sid, drop experimental and the pin: use 18's line.
	19) suite=sid extra="postgresql-18 postgresql-server-dev-18" ;;
	*) echo "chroot.sh: no Debian suite known for PostgreSQL $major" >&2; exit 2 ;;
esac

# Everything every stage needs, in one apt transaction: libfaketime moves a
# server's clock in test/t/020_durable.pl; sqlsmith sends
# test/t/160_sqlsmith.pl's random queries; debhelper, dpkg-dev,
# postgresql-server-dev-all and lintian build and check the Debian package
# (ci/package.sh).
packages="postgresql-$major postgresql-server-dev-$major $extra make gcc libc6-dev libfaketime sqlsmith libipc-run-perl
	build-essential debhelper dpkg-dev postgresql-server-dev-all lintian"
[ "$flavour" = runtime ] && packages="postgresql-$major"
packages=$(echo $packages)

# The base it was copied from, and the packages, say what a complete
# chroot holds: a change of either makes it again.
chroot_base "$cache" "$suite" || exit 1
want="$(cat "$cache/base-$suite/.xid-base-complete") $packages"
[ "$major" = 19 ] && want="$want experimental-pin:libpq"

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then
	echo "chroot for PostgreSQL $major: reusing $dir"
	exit 0
fi

# A complete chroot of the same base that only lacks packages added to the
# list since: install them there instead of making it again.
if [ -f "$marker" ] && [ "$(cut -d' ' -f1-3 "$marker")" = "$(cut -d' ' -f1-3 <<<"$want")" ] &&
	chroot_apt "$cache" "$suite" "$dir" "$packages" >"$dir.apt.log" 2>&1; then
	rm -f "$dir.apt.log"
	echo "$want" >"$marker"
	echo "chroot for PostgreSQL $major: reusing $dir, packages added"
	exit 0
fi

echo "chroot for PostgreSQL $major: making $dir from the Debian $suite base"
chroot_from_base "$cache" "$suite" "$dir" || exit 1
if [ "$major" = 19 ]; then
	# experimental for PostgreSQL 19 and the libpq it needs (19's
	# server-dev depends on libpq-dev >= 19); everything else stays on sid
	echo "deb $mirror experimental main" >"$dir/etc/apt/sources.list.d/experimental.list"
	cat >"$dir/etc/apt/preferences.d/99xid-pg19" <<PIN
Package: *
Pin: release a=experimental
Pin-Priority: 1

Package: postgresql-19 postgresql-client-19 postgresql-server-dev-19 postgresql-19-* libpq5 libpq-dev
Pin: release a=experimental
Pin-Priority: 500
PIN
fi

chroot_apt "$cache" "$suite" "$dir" "$packages" >"$dir.apt.log" 2>&1 || {
	tail -20 "$dir.apt.log" >&2
	exit 1
}
rm -f "$dir.apt.log"

test -x "$dir/usr/lib/postgresql/$major/bin/pg_config" || {
	echo "chroot.sh: pg_config $major missing after install" >&2
	exit 1
}
echo "$want" >"$marker"
echo "chroot for PostgreSQL $major: ready"
