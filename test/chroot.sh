#!/usr/bin/env bash
# test/chroot.sh: prepare a cached Debian chroot holding one PostgreSQL major
# version with its server, contrib and dev packages, for test/matrix.sh.
#
# Usage: test/chroot.sh MAJOR DIR
#   17 comes from Debian trixie, 18 from sid.  DIR is reused when it holds the
#   marker written as the very last step; anything else at DIR (a half-built
#   chroot from an interrupted run) is unmounted, removed and built again.
set -euo pipefail

major=${1:?usage: chroot.sh MAJOR DIR}
dir=${2:?usage: chroot.sh MAJOR DIR}
mirror=${XID_DEBIAN_MIRROR:-http://deb.debian.org/debian}
marker="$dir/.xid-chroot-complete"

case "$major" in
	17) suite=trixie ;;
	18) suite=sid ;;
	*) echo "chroot.sh: no Debian suite known for PostgreSQL $major" >&2; exit 2 ;;
esac

# The packages, and so the marker, say what a complete chroot holds: a
# change of this list rebuilds every cached chroot.
packages="postgresql-$major postgresql-server-dev-$major make gcc libc6-dev"
want="$suite $packages"

unmount_all()
{
	# Unmount everything below DIR, deepest first.
	local m
	for m in $(awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}

if [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ]; then
	echo "chroot for PostgreSQL $major: reusing $dir"
	exit 0
fi

command -v debootstrap >/dev/null || {
	apt-get update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
}

echo "chroot for PostgreSQL $major: building $dir from Debian $suite"
unmount_all
rm -rf --one-file-system "$dir"
mkdir -p "$dir"
trap unmount_all EXIT

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
# sid here is a frozen snapshot whose Release file has expired.
echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/99xid-snapshot"

mount -t proc proc "$dir/proc"
chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
	sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $packages" \
	>"$dir.apt.log" 2>&1 || {
	tail -20 "$dir.apt.log" >&2
	exit 1
}
rm -f "$dir.apt.log"
chroot "$dir" apt-get clean
unmount_all

test -x "$dir/usr/lib/postgresql/$major/bin/pg_config" || {
	echo "chroot.sh: pg_config $major missing after install" >&2
	exit 1
}
echo "$want" >"$marker"
echo "chroot for PostgreSQL $major: ready"
