#!/usr/bin/env bash
# ci/package.sh MAJOR: the Debian package postgresql-MAJOR-xid.
#
# 1. Builds it with pg_buildext (dpkg-buildpackage -b) where MAJOR's dev
#    packages live: the host for 15, else the chroot of ci/chroot.sh.
# 2. Runs lintian on it: errors fail, warnings are listed.
# 3. Installs it with apt-get into a runtime chroot (ci/chroot.sh MAJOR
#    DIR runtime: the server, no build tools, never a make install), runs
#    the regression suites of both extensions against the packaged files
#    with pg_regress, removes the package and checks that none of its files
#    is left.
# Prints ok/FAIL lines; exits non-zero on a failure.  Needs root.
set -uo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh
major=${1:?usage: package.sh MAJOR}
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
out=$(mktemp -d /tmp/xid-pkg.XXXXXX)
failed=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }
trap 'rm -rf "$out"' EXIT

build_cmd="apt-get install -y -q --no-install-recommends build-essential debhelper postgresql-server-dev-all dpkg-dev lintian >/dev/null &&
	cd /build/pkg/xid && PG_SUPPORTED_VERSIONS=$major pg_buildext updatecontrol &&
	DEB_BUILD_OPTIONS=nocheck PG_SUPPORTED_VERSIONS=$major dpkg-buildpackage -us -uc -b &&
	lintian --no-tag-display-limit ../postgresql-$major-xid_*.deb"

# 1 and 2: build and lintian
if [ "$major" = 15 ]; then
	apt_install build-essential debhelper postgresql-server-dev-all dpkg-dev lintian
	builddir=$out/build
	copy_sources "$top" "$builddir/pkg/xid"
	(bash -c "${build_cmd//\/build/$builddir}") >"$out/build.log" 2>&1
	rc=$?
else
	dir=$cache/pg$major
	bash ci/chroot.sh "$major" "$dir" >/dev/null || { bad "chroot for $major"; exit 1; }
	builddir=$dir/build
	rm -rf "$builddir/pkg"
	copy_sources "$top" "$builddir/pkg/xid"
	chroot_exec "$dir" -- bash -c "$build_cmd" >"$out/build.log" 2>&1
	rc=$?
fi
deb=$(ls "$builddir"/pkg/postgresql-"$major"-xid_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then
	tail -40 "$out/build.log"
	bad "build postgresql-$major-xid"
	exit 1
fi
ok "build $(basename "$deb")"
lint=$(grep -E "^[EWIP]: postgresql-$major-xid" "$out/build.log" || true)
if grep -q '^E: ' <<<"$lint"; then
	grep '^E: ' <<<"$lint"
	bad "lintian: errors"
else
	ok "lintian: no errors ($(grep -c '^W: ' <<<"$lint") warnings)"
fi
grep '^W: ' <<<"$lint" | sed 's/^/     /'
[ $rc -eq 0 ] || { tail -20 "$out/build.log"; bad "dpkg-buildpackage or lintian exit $rc"; }

# 3: install, test and remove in a runtime chroot
run=$cache/pg$major-runtime
bash ci/chroot.sh "$major" "$run" runtime >/dev/null || { bad "runtime chroot for $major"; exit 1; }
rm -rf "$run/build/pkgtest"
mkdir -p "$run/build/pkgtest"
cp "$deb" "$run/build/pkgtest/"
tar -C "$top" -cf - ci/cluster.sh ci/package_check.sh sql expected portable/sql portable/expected \
	portable/xid_portable.sql xid.control move/sql move/expected | tar -xf - -C "$run/build/pkgtest"
# the regression tests of this version: the Makefile's list and its rules,
# less the three that take most of the time and test behaviour, not the
# files (like 28 s, integrity 22 s, equivalence 37 s on 15): the version's
# suite runs them on the same sources, and what the package must prove
# (every script, the library, the control files, the portable script in
# place and working) the others cover, upgrade installing every script
tests="$(sed -nE 's/^REGRESS = (.*)$/\1/p' "$top/Makefile")"
[ "$major" -ge 16 ] && tests="$tests softerr"
[ "$major" -ge 17 ] && tests="$tests copy_onerror"
without() { tr ' ' '\n' | grep -vxF -e like -e integrity -e equivalence | tr '\n' ' '; }
without <<<"$tests" >"$run/build/pkgtest/regress-list"
sed -nE 's/^REGRESS = (.*)$/\1/p' "$top/portable/Makefile" | without >"$run/build/pkgtest/portable-regress-list"
sed -nE 's/^REGRESS = (.*)$/\1/p' "$top/move/Makefile" >"$run/build/pkgtest/move-regress-list"
chroot_exec "$run" -- bash /build/pkgtest/ci/package_check.sh "$major" >"$out/check.log" 2>&1
rc=$?
cat "$out/check.log"
[ $rc -eq 0 ] || bad "package test in the runtime chroot"
[ "$failed" -eq 0 ]
