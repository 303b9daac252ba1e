#!/usr/bin/env bash
# test/chroot.sh: prepare a cached Debian chroot holding one PostgreSQL major
# version with its server, contrib and dev packages, for test/matrix.sh.
#
# Usage: test/chroot.sh MAJOR DIR [runtime]
#   runtime: only the server (postgresql-MAJOR), no dev packages and no
#   build tools, for installing the Debian package (test/package.sh); 15
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

# The archive here serves sid as a frozen snapshot whose Release file has
# expired, and apt refuses it ("E: Release file for .../sid/InRelease is
# expired (invalid since ...)").  Only there is the validity check off.
extra=""
# Beside the server: what users run with xid where Debian packages it for
# that version (TimescaleDB, pg_cron, pg_partman), for test/sh's tests of
# partitioning by time.
case "$major" in
	15) suite=bookworm apt_options="" ;;
	17) suite=trixie apt_options="" extra="postgresql-17-timescaledb postgresql-17-cron postgresql-17-partman" ;;
	# 18 also holds the drivers the client packages are tested with
	# (test/clients.sh), listed in clients/debian-packages.
	18) suite=sid apt_options='Acquire::Check-Valid-Until "false";' extra="postgresql-18-timescaledb postgresql-18-cron postgresql-18-partman $(client_packages)" ;;
	# PostgreSQL 19 is a release candidate (19~rc1) in experimental.  Once a
	# final 19 is in sid, drop experimental and the pin: use 18's line.
	19) suite=sid apt_options='Acquire::Check-Valid-Until "false";' extra="postgresql-18 postgresql-server-dev-18" ;;
	*) echo "chroot.sh: no Debian suite known for PostgreSQL $major" >&2; exit 2 ;;
esac

# The packages and apt options, and so the marker, say what a complete
# chroot holds: a change of either rebuilds the cached chroot.
# libfaketime moves a server's clock in test/sh/durable.sh; sqlsmith sends
# test/sh/sqlsmith.sh's random queries.
packages="postgresql-$major postgresql-server-dev-$major $extra make gcc libc6-dev libfaketime sqlsmith"
[ "$flavour" = runtime ] && packages="postgresql-$major"
want="$suite $packages${apt_options:+ $apt_options}"
[ "$major" = 19 ] && want="$want experimental-pin:libpq"

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then
	echo "chroot for PostgreSQL $major: reusing $dir"
	exit 0
fi

# A complete chroot of the same suite that only lacks packages added to the
# list since: install them there instead of building it again.
if [ -f "$marker" ] && [ "$(cut -d' ' -f1 "$marker")" = "$suite" ] &&
	chroot_exec "$dir" -- sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $packages && apt-get clean" \
		>"$dir.apt.log" 2>&1; then
	rm -f "$dir.apt.log"
	echo "$want" >"$marker"
	echo "chroot for PostgreSQL $major: reusing $dir, packages added"
	exit 0
fi

apt_install debootstrap

echo "chroot for PostgreSQL $major: building $dir from Debian $suite"
chroot_unmount "$dir"
rm -rf --one-file-system "$dir"
mkdir -p "$dir"
trap 'chroot_unmount "$dir"' EXIT

debootstrap --variant=minbase "$suite" "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 || {
	tail -20 "$dir.debootstrap.log" >&2
	exit 1
}
rm -f "$dir.debootstrap.log"

# Packages must start no server, and must create no cluster of their own.
printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
chmod +x "$dir/usr/sbin/policy-rc.d"
mkdir -p "$dir/etc/postgresql-common"
echo "create_main_cluster = false" >"$dir/etc/postgresql-common/createcluster.conf"
[ -n "$apt_options" ] && echo "$apt_options" >"$dir/etc/apt/apt.conf.d/99xid-snapshot"
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

chroot_exec "$dir" -- sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $packages && apt-get clean" \
	>"$dir.apt.log" 2>&1 || {
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
