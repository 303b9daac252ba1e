#!/usr/bin/env bash
# ci/package_check.sh MAJOR: inside a runtime chroot (ci/package.sh
# copied the package, the tests and this script to /build/pkgtest): install
# the package with apt-get, run both regression suites against it with
# pg_regress, remove it, and check that nothing of it is left.
set -uo pipefail
cd /build/pkgtest
. ci/cluster.sh
major=$1
pkg=postgresql-$major-xid
bindir=/usr/lib/postgresql/$major/bin
pg_regress=/usr/lib/postgresql/$major/lib/pgxs/src/test/regress/pg_regress
failed=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }

if command -v make >/dev/null || command -v gcc >/dev/null; then
	bad "the runtime chroot has build tools"
fi
if apt-get install -y -q ./"$pkg"_*.deb >install.log 2>&1; then
	ok "apt-get install ./$(ls "$pkg"_*.deb)"
else
	tail -20 install.log
	bad "apt-get install"
	exit 1
fi
dpkg -L "$pkg" | while read -r f; do [ -f "$f" ] && echo "$f"; done >files.txt
ok "the package installs $(wc -l <files.txt) files: $(grep -c '\.so$' files.txt) library, $(grep -c '\.sql$' files.txt) scripts, $(grep -c '\.control$' files.txt) control files"

work=$(mktemp -d /tmp/xid-pkgcheck.XXXXXX)
chmod 711 "$work"
port=$(free_port)
cluster_start "$bindir" "$work/c" "$port" || { bad "start a cluster"; exit 1; }
export PGHOST="$work/c/sock" PGPORT=$port PGUSER=postgres
# regress SUITE_DIR LIST EXTENSION: pg_regress as make installcheck runs it
regress()
{
	local dir=$1 list=$2 ext=$3
	shift 3
	(cd "$dir" && "$pg_regress" --inputdir=. --bindir="$bindir" --dbname=contrib_regression \
		--load-extension="$ext" "$@" $list) >"$work/regress-$ext.log" 2>&1
	local rc=$?
	grep -E '^(ok|not ok) |\.\.\. (ok|FAILED|failed)' "$work/regress-$ext.log" | sed 's/^/     /'
	if [ $rc -eq 0 ]; then
		ok "pg_regress ($(basename "$dir")): $(wc -w <<<"$list") tests against the packaged files"
	else
		# the diffs, or what stopped pg_regress before any test ran
		if [ -f "$dir/regression.diffs" ]; then
			head -60 "$dir/regression.diffs"
		else
			tail -20 "$work/regress-$ext.log" | sed 's/^/     /'
		fi
		bad "pg_regress ($(basename "$dir"))"
	fi
}
regress /build/pkgtest "$(cat regress-list)" xid
regress /build/pkgtest/portable "$(cat portable-regress-list)" plpgsql
# the online key move, its own extension in the same package
regress /build/pkgtest/move "$(cat move-regress-list)" xid --load-extension=xid_move
cluster_stop "$bindir" "$work/c"
rm -rf "$work"

if apt-get purge -y -q "$pkg" >purge.log 2>&1; then
	ok "apt-get purge $pkg"
else
	tail -20 purge.log
	bad "apt-get purge"
fi
left=$(while read -r f; do [ -e "$f" ] && echo "$f"; done <files.txt)
if [ -z "$left" ]; then
	ok "nothing of the package is left"
else
	echo "$left"
	bad "files left after purge"
fi
[ "$failed" -eq 0 ]
