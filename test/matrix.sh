#!/usr/bin/env bash
# test/matrix.sh: the whole test suite on every supported PostgreSQL major
# version: 15 from this Debian 12 host, 17, 18 and 19 from Debian trixie,
# sid and sid with experimental in cached debootstrap chroots
# (test/chroot.sh); then 18 built with assertions, xid under the sanitizers
# (test/assert.sh).  Needs root.
#
# Usage: test/matrix.sh [MAJOR...]      (default: 15 17 18 19)
#   XID_CHROOT_CACHE  where chroots are kept (default /var/cache/xid-ci)
#   XID_SKIP_ASSERT   no run of test/assert.sh (with 18 in the list)
#
# Prints each version's tests, one summary line per version, and a closing
# "N passed, N failed" over all of them.  Exits non-zero on any failure.
set -uo pipefail

cd "$(dirname "$0")/.."
top=$(pwd)
. test/lib.sh
. test/cluster.sh
versions=${*:-15 17 18 19}
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
total_passed=0
total_failed=0
summary=()

if [ "$(id -u)" -ne 0 ]; then
	echo "test/matrix.sh needs root (apt-get, chroot, runuser)" >&2
	exit 2
fi

unmount_chroots()
{
	local v
	for v in $versions; do chroot_unmount "$cache/pg$v"; done
}
trap unmount_chroots EXIT
trap 'echo "interrupted"; exit 130' INT TERM

# The host: PostgreSQL 15 server and headers, debootstrap for the chroots,
# clang with libFuzzer for the codec's fuzz target, libfaketime to move a
# server's clock.
host_setup()
{
	apt_install postgresql-15 postgresql-server-dev-15 debootstrap make gcc \
		clang-14 libclang-rt-14-dev git python3 libfaketime sqlsmith
}

record()
{
	local major=$1 result_file=$2 line p f
	if [ -s "$result_file" ]; then
		read -r p f <"$result_file"
	else
		p=0
		f=1
	fi
	total_passed=$((total_passed + p))
	total_failed=$((total_failed + f))
	if [ "$f" -eq 0 ]; then line="PostgreSQL $major: ok ($p passed)"; else line="PostgreSQL $major: FAILED ($p passed, $f failed)"; fi
	summary+=("$line")
}

# The codec on its own: unit tests under ASan/UBSan, then a short fuzz run.
run_codec()
{
	local copy p=0 f=0
	copy=$(mktemp -d /tmp/xid-codec.XXXXXX)
	copy_sources "$top" "$copy"
	echo "==== codec (sanitizers, fuzzing)"
	if make -s -C "$copy" sanitize PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >"$copy/sanitize.log" 2>&1; then
		p=$((p + 1))
		echo "ok   codec unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
	else
		f=$((f + 1))
		tail -30 "$copy/sanitize.log"
		echo "FAIL codec unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
	fi
	if make -s -C "$copy" fuzz FUZZ_CC=clang-14 FUZZ_SECONDS="${XID_FUZZ_SECONDS:-60}" \
		PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >"$copy/fuzz.log" 2>&1; then
		p=$((p + 1))
		echo "ok   fuzzing the codec for ${XID_FUZZ_SECONDS:-60} s ($(sed -nE 's/^stat::number_of_executed_units: *//p' "$copy/fuzz.log") inputs)"
	else
		f=$((f + 1))
		grep -E 'invariant failed|ERROR|SUMMARY|Test unit written' "$copy/fuzz.log" | head -20
		cp -r "$copy"/crash-* "$top/" 2>/dev/null || true
		echo "FAIL fuzzing the codec (crashing input copied to the repository root)"
	fi
	echo "$p $f" >"$copy/result"
	record codec "$copy/result"
	summary[-1]=${summary[-1]/PostgreSQL codec/codec}
	rm -rf "$copy"
}

run_host()
{
	local result="$top/.matrix-15.result"
	local copy
	copy=$(mktemp -d /tmp/xid-src-15.XXXXXX)
	copy_sources "$top" "$copy"
	echo "==== PostgreSQL 15 (host)"
	rm -f "$result"
	bash "$copy/test/suite.sh" /usr/lib/postgresql/15/bin/pg_config "$result"
	if [ -f "$copy/regression.diffs" ]; then cp "$copy/regression.diffs" "$top/regression-15.diffs"; fi
	record 15 "$result"
	rm -rf "$copy" "$result"
}

run_chroot()
{
	local major=$1 dir="$cache/pg$1" result
	echo "==== PostgreSQL $major (chroot $dir)"
	if ! bash "$top/test/chroot.sh" "$major" "$dir"; then
		summary+=("PostgreSQL $major: FAILED (could not prepare the chroot)")
		total_failed=$((total_failed + 1))
		return
	fi
	copy_sources "$top" "$dir/build/xid"
	result="$dir/build/result"
	rm -f "$result"
	chroot_exec "$dir" -- bash /build/xid/test/suite.sh \
		"/usr/lib/postgresql/$major/bin/pg_config" /build/result
	if [ -f "$dir/build/xid/regression.diffs" ]; then cp "$dir/build/xid/regression.diffs" "$top/regression-$major.diffs"; fi
	record "$major" "$result"
}

# result NAME RC: count a cross-version test and add its summary line
result()
{
	if [ "$2" -eq 0 ]; then
		echo "ok   $1"
		total_passed=$((total_passed + 1))
		summary+=("$1: ok")
	else
		echo "FAIL $1"
		total_failed=$((total_failed + 1))
		summary+=("$1: FAILED")
	fi
}

# From the host's 15 to a chroot's MAJOR, after both suites installed xid:
# logical replication (a 15 publisher on 127.0.0.1 here, the subscriber
# and the test in the chroot, which shares the host's network), and a
# plain pg_dump of test/major/fixture.sql restored there.
run_cross()
{
	local major=$1 dir="$cache/pg$1" work pub_port sub_port rc
	echo "==== from PostgreSQL 15 to $major: logical replication, dump and restore"
	work=$(mktemp -d /tmp/xid-cross.XXXXXX)
	chmod 711 "$work"
	pub_port=$(free_port 58150)
	if ! cluster_start /usr/lib/postgresql/15/bin "$work/pub" "$pub_port" \
		"listen_addresses = '127.0.0.1'" "wal_level = logical"; then
		result "replication 15 -> $major" 1
		return
	fi
	sub_port=$(free_port $((pub_port + 1)))
	copy_sources "$top" "$dir/build/xid"
	chroot_exec "$dir" -- bash /build/xid/test/rep_subscriber.sh "$major" "$pub_port" "$sub_port" \
		>"$work/rep.log" 2>&1
	rc=$?
	sed 's/^/     /' "$work/rep.log"
	result "replication 15 -> $major (text and binary)" $rc

	# the fixture on 15, dumped with 15's pg_dump
	local psql15=(/usr/lib/postgresql/15/bin/psql -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pub_port" -U postgres)
	rc=0
	{ "${psql15[@]}" -d postgres -c "CREATE DATABASE fx" &&
		"${psql15[@]}" -d fx -v xid_version=1.0 -f "$top/test/major/fixture.sql" &&
		"${psql15[@]}" -d fx -f "$top/test/major/values.sql" >"$dir/build/fx-before.txt" &&
		/usr/lib/postgresql/15/bin/pg_dump -h 127.0.0.1 -p "$pub_port" -U postgres -f "$dir/build/fx.sql" fx; } \
		>"$work/dump.log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		chroot_exec "$dir" -- bash /build/xid/test/major/restore.sh "$major" /build/fx.sql /build/fx-before.txt \
			>"$work/restore.log" 2>&1
		rc=$?
		sed 's/^/     /' "$work/restore.log"
	else
		sed 's/^/     /' "$work/dump.log"
	fi
	result "pg_dump 15 -> restore into $major" $rc
	cluster_stop /usr/lib/postgresql/15/bin "$work/pub"
	rm -rf "$work" "$dir/build/fx.sql" "$dir/build/fx-before.txt"
}

# count_stage LABEL LOG: count a stage's "ok" and "FAIL" lines (none at all
# is a failure) and add its summary line; removes LOG
count_stage()
{
	local label=$1 log=$2 p f
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	[ "$p" -eq 0 ] && [ "$f" -eq 0 ] && f=1
	rm -f "$log"
	total_passed=$((total_passed + p))
	total_failed=$((total_failed + f))
	if [ "$f" -eq 0 ]; then summary+=("$label: ok ($p passed)"); else summary+=("$label: FAILED ($p passed, $f failed)"); fi
}

# The Debian package of one version (test/package.sh): build, lintian,
# install into a runtime chroot, both suites, purge
run_package()
{
	local major=$1 log
	echo "==== Debian package postgresql-$major-xid"
	log=$(mktemp /tmp/xid-pkg-log.XXXXXX)
	bash "$top/test/package.sh" "$major" >"$log" 2>&1
	cat "$log"
	count_stage "package $major" "$log"
}

# PostgreSQL 18 built with assertions, xid with AddressSanitizer and
# UndefinedBehaviorSanitizer (test/assert.sh): installcheck, test/sh and
# sqlsmith, in a chroot of its own built once
run_assert()
{
	local log
	echo "==== PostgreSQL 18 with assertions, xid under ASan and UBSan, sqlsmith"
	log=$(mktemp /tmp/xid-assert-log.XXXXXX)
	XID_CHROOT_CACHE="$cache" bash "$top/test/assert.sh" 2>&1 | tee "$log"
	count_stage "PostgreSQL 18 (assert)" "$log"
}

# Citus 14 (test/citus.sh) on a version it supports, in that version's
# chroot; without the Citus source in ../shared/vendor it says so in one
# line and counts neither way
run_citus()
{
	local major=$1 log p f
	echo "==== Citus on PostgreSQL $major"
	log=$(mktemp /tmp/xid-citus-log.XXXXXX)
	XID_CHROOT_CACHE="$cache" bash "$top/test/citus.sh" "$major" 2>&1 | tee "$log"
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^FAIL ' "$log")
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && grep -q '^skip ' "$log"; then
		summary+=("Citus $major: skipped (no Citus source)")
	else
		[ "$p" -eq 0 ] && [ "$f" -eq 0 ] && f=1
		total_passed=$((total_passed + p))
		total_failed=$((total_failed + f))
		if [ "$f" -eq 0 ]; then summary+=("Citus $major: ok ($p passed)"); else summary+=("Citus $major: FAILED ($p passed, $f failed)"); fi
	fi
	rm -f "$log"
}

# The client packages (test/clients.sh): each clients/LANG/test.sh against
# PostgreSQL 18 in its chroot, with the drivers of clients/debian-packages
run_clients()
{
	local log
	echo "==== client packages on PostgreSQL 18"
	log=$(mktemp /tmp/xid-clients-log.XXXXXX)
	XID_CHROOT_CACHE="$cache" bash "$top/test/clients.sh" 2>&1 | tee "$log"
	count_stage "clients" "$log"
}

# The PGXN zip of the committed tree, checked against the meta spec
run_dist()
{
	local rc
	echo "==== make dist"
	make -s -C "$top" dist PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
	rc=$?
	rm -f "$top"/xid-*.zip
	result "make dist (PGXN zip, META.json)" $rc
}

# pg_upgrade from 18 to 19 in the 19 chroot, which holds both
run_pg_upgrade()
{
	local dir="$cache/pg19" work rc
	echo "==== pg_upgrade from PostgreSQL 18 to 19"
	work=$(mktemp -d /tmp/xid-upg.XXXXXX)
	copy_sources "$top" "$dir/build/xid"
	chroot_exec "$dir" -- bash /build/xid/test/major/pg_upgrade.sh 18 19 >"$work/upgrade.log" 2>&1
	rc=$?
	sed 's/^/     /' "$work/upgrade.log"
	rm -rf "$work"
	result "pg_upgrade 18 -> 19" $rc
}

host_setup
rm -f "$top"/regression-*.diffs
[ -z "${XID_SKIP_CODEC:-}" ] && run_codec
for v in $versions; do
	case "$v" in
		15) run_host ;;
		17 | 18 | 19) run_chroot "$v" ;;
		*) echo "unsupported PostgreSQL version: $v" >&2; total_failed=$((total_failed + 1)) ;;
	esac
done
case " $versions " in *" 18 "*) [ -z "${XID_SKIP_ASSERT:-}" ] && run_assert ;; esac
# across major versions: needs 15 and the other version in this run
for v in $versions; do
	case " $versions " in *" 15 "*) ;; *) break ;; esac
	case "$v" in 17 | 18 | 19) run_cross "$v" ;; esac
done
case " $versions " in *" 19 "*) run_pg_upgrade ;; esac
for v in $versions; do
	case "$v" in 17 | 18) run_citus "$v" ;; esac
done
case " $versions " in *" 18 "*) run_clients ;; esac
[ -z "${XID_SKIP_PACKAGES:-}" ] && for v in $versions; do run_package "$v"; done
run_dist

echo "==== summary"
for line in "${summary[@]}"; do echo "$line"; done
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
