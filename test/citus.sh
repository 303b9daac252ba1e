#!/usr/bin/env bash
# test/citus.sh: xid on Citus, in the chroot of one PostgreSQL major version
# (test/chroot.sh).  Needs root.  Called by test/matrix.sh; also runs alone.
#
# Usage: test/citus.sh MAJOR [install]  (17 or 18; Citus 14 supports 16-18)
#   install: only build and install Citus and xid in the chroot (for
#   bench/citus.sh), no tests
#   XID_CHROOT_CACHE  where chroots are kept (default /var/cache/xid-ci)
#   XID_CITUS_TESTS, XID_KEEP  passed on to test/citus/run.sh (see there)
#
# Citus is not in Debian.  Its source is a test dependency kept beside the
# project, in ../shared/vendor (checked against its sha256 here); without
# it this prints one "skip" line and exits 0.  Citus is built in the
# chroot once per major version and kept, installed (DESTDIR), under
# CACHE/citus-MAJOR with a marker naming the tarball, the version of
# PostgreSQL and the build packages; a change of any of them builds again.
# The chroot gets the build packages and the cached files when its own
# marker, DIR/.xid-citus-installed, is missing or different, so a rebuilt
# chroot gets Citus back.  Then xid is built and installed from a copy of
# the sources and test/citus/run.sh runs the tests inside the chroot: a
# coordinator and two workers on 127.0.0.1, one line "ok ..." or
# "FAIL ..." per test; on a failure the diffs are in
# regression-citus-MAJOR.diffs.  Exits non-zero on any failure.
set -uo pipefail

cd "$(dirname "$0")/.."
top=$(pwd)
. test/lib.sh

major=${1:?usage: test/citus.sh MAJOR [install]}
mode=${2:-test}
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
dir="$cache/pg$major"
vendor="$top/../shared/vendor"
citus_version=14.0.1
tarball="$vendor/citus-$citus_version.tar.gz"
tarball_sha256=26ddb8ec9de07c5fa8426e435d10936e5cd6bed01a5ad94aab92e818081e5ec9
# what Citus links with (libcurl: its statistics collection; krb5, ssl and
# icu: what the server's pg_config asks an extension to link with)
packages="libcurl4-openssl-dev liblz4-dev libzstd-dev libkrb5-dev libssl-dev libicu-dev"

if [ ! -f "$tarball" ]; then
	echo "skip Citus $citus_version on PostgreSQL $major: no $tarball (see ../shared/vendor/README.md)"
	exit 0
fi
case "$major" in
	16 | 17 | 18) ;;
	*) echo "FAIL Citus $citus_version does not support PostgreSQL $major"; exit 1 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
	echo "test/citus.sh needs root (chroot, runuser)" >&2
	exit 2
fi
got=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$got" != "$tarball_sha256" ]; then
	echo "FAIL $tarball: sha256 $got, expected $tarball_sha256"
	exit 1
fi

trap 'chroot_unmount "$dir"' EXIT
trap 'exit 130' INT TERM

if ! bash "$top/test/chroot.sh" "$major" "$dir" >/dev/null; then
	echo "FAIL the chroot for PostgreSQL $major (test/chroot.sh)"
	exit 1
fi

# build packages in the chroot, when missing
chroot_packages()
{
	chroot_exec "$dir" -- sh -c "dpkg -s $packages >/dev/null 2>&1 ||
		{ apt-get update -q && apt-get install -y -q --no-install-recommends $packages && apt-get clean; }" \
		>"$dir/build/citus-apt.log" 2>&1 || {
		tail -20 "$dir/build/citus-apt.log"
		return 1
	}
	rm -f "$dir/build/citus-apt.log"
}

mkdir -p "$dir/build"
pg_version=$(chroot_exec "$dir" -- "/usr/lib/postgresql/$major/bin/pg_config" --version)
want="citus-$citus_version $tarball_sha256 $pg_version $packages"
cdir="$cache/citus-$major"

# Build once per major version: the installed files go to CACHE/citus-MAJOR/stage
if [ ! -f "$cdir/.xid-citus-complete" ] || [ "$(cat "$cdir/.xid-citus-complete")" != "$want" ]; then
	echo "Citus $citus_version for PostgreSQL $major: building (a few minutes)"
	start=$SECONDS
	rm -rf "$cdir" "$dir/build/citus-src" "$dir/build/citus-stage"
	mkdir -p "$dir/build/citus-src"
	if ! chroot_packages; then
		echo "FAIL installing Citus' build packages into $dir"
		exit 1
	fi
	tar -xzf "$tarball" -C "$dir/build/citus-src" --strip-components=1
	chroot_exec "$dir" -- sh -c "cd /build/citus-src &&
		./configure PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config &&
		make -j$(nproc) && make install DESTDIR=/build/citus-stage" >"$dir/build/citus-build.log" 2>&1 || {
		tail -30 "$dir/build/citus-build.log"
		echo "FAIL building Citus $citus_version for PostgreSQL $major (log: $dir/build/citus-build.log)"
		exit 1
	}
	mkdir -p "$cdir"
	mv "$dir/build/citus-stage" "$cdir/stage"
	rm -rf "$dir/build/citus-src" "$dir/build/citus-build.log"
	echo "$want" >"$cdir/.xid-citus-complete"
	echo "Citus $citus_version for PostgreSQL $major: built in $((SECONDS - start)) s, kept in $cdir"
fi

# Install into the chroot when it has not this build (a new or rebuilt chroot)
if [ ! -f "$dir/.xid-citus-installed" ] || [ "$(cat "$dir/.xid-citus-installed")" != "$want" ]; then
	if ! chroot_packages; then
		echo "FAIL installing Citus' packages into $dir"
		exit 1
	fi
	cp -a "$cdir/stage/." "$dir/"
	echo "$want" >"$dir/.xid-citus-installed"
fi

# xid from a copy of the sources (its own, so that a suite run that uses
# /build/xid is not disturbed), then the tests
copy_sources "$top" "$dir/build/xid-citus"
chroot_exec "$dir" -- sh -c "cd /build/xid-citus &&
	make -s PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config &&
	make -s install PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config" >"$dir/build/xid-citus.log" 2>&1 || {
	cat "$dir/build/xid-citus.log"
	echo "FAIL building xid for the Citus tests on PostgreSQL $major"
	exit 1
}
if [ "$mode" = install ]; then
	rm -rf "$dir/build/xid-citus" "$dir/build/xid-citus.log"
	echo "Citus $citus_version and xid installed in $dir"
	exit 0
fi
chroot_exec "$dir" XID_KEEP="${XID_KEEP:-}" XID_CITUS_TESTS="${XID_CITUS_TESTS:-}" -- bash /build/xid-citus/test/citus/run.sh "$major" /build/citus-out
rc=$?
rm -f "$top/regression-citus-$major.diffs"
if [ -f "$dir/build/citus-out/regression.diffs" ]; then
	cp "$dir/build/citus-out/regression.diffs" "$top/regression-citus-$major.diffs"
	echo "     diffs in regression-citus-$major.diffs, outputs in $dir/build/citus-out"
fi
rm -rf "$dir/build/xid-citus" "$dir/build/xid-citus.log"
exit $rc
