#!/usr/bin/env bash
# ci/report.sh LOGS FULL STAGE...: the closing table of ci/matrix.sh, every
# stage's result and wall time, the use of the cores, and "N passed, N
# failed" (a stage that did not run, as a stage it needs failed, counts
# one failure).  FULL non-empty (every version, nothing left out): the
# table goes to ci/matrix-times.txt too, which DEVELOPING.md shows.  Exits
# non-zero on any failure.
set -uo pipefail
logs=$1 full=$2
shift 2
cd "$(dirname "$0")/.."
t0=$(cat "$logs/t0")
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
read -r busy0 idle0 <"$logs/cpu0"
read -r _ u n s i w q sq st _ </proc/stat
busy=$((u + n + s + q + sq + st - busy0)) idle=$((i + w - idle0))
total_passed=0 total_failed=0
table()
{
	local n kind rc p f start end r
	echo "==== stages (wall time; the total is less than their sum where they overlapped)"
	printf '%-16s %-7s %6s %6s %8s %8s\n' stage result passed failed start wall
	for n in "$@"; do
		if [ -f "$logs/$n.result" ]; then
			read -r kind rc p f start end <"$logs/$n.result"
		else
			echo "FAIL $n: not run, a stage it needs failed" >&2
			p=0 f=1 start=$t0 end=$t0
		fi
		r=ok
		[ "$f" -eq 0 ] || r=FAIL
		printf '%-16s %-7s %6d %6d %8s %8s\n' "$n" "$r" "$p" "$f" "$(mmss $((start - t0)))" "$(mmss $((end - start)))"
		total_passed=$((total_passed + p)) total_failed=$((total_failed + f))
	done
	echo "total wall time $(mmss $(($(date +%s) - t0)))"
	[ $((busy + idle)) -gt 0 ] && echo "the cores were busy $((100 * busy / (busy + idle)))% of the run ($(nproc) cores, $((busy / $(getconf CLK_TCK) / 60)) core-minutes)"
	echo "$total_passed passed, $total_failed failed"
}
table "$@"
if [ -n "$full" ]; then
	{
		echo "# ci/matrix.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git describe --always --dirty 2>/dev/null || echo 'no git')"
		echo "# chroot cache ${XID_CHROOT_CACHE:-/var/cache/xid-ci}, XID_JOBS=${XID_JOBS:-4}"
		total_passed=0 total_failed=0
		table "$@" 2>/dev/null
	} >ci/matrix-times.txt
fi
[ "$total_failed" -eq 0 ]
