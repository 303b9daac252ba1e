#!/usr/bin/env bash
# ci/matrix.sh: the whole test suite on every supported PostgreSQL major
# version (what .ci/run runs, and README's test command).  Installs make
# and debootstrap, runs the stages of ci/Makefile with make -j, and closes
# with a table of every stage's result and wall time and "N passed, N
# failed" (ci/report.sh).  Needs root.
#
# Usage: ci/matrix.sh [prepare|plan] [MAJOR...]   (default: 15 17 18 19)
#   prepare           only install and build what the tests need, no tests
#   plan              print the stages of the run, run nothing
#   XID_CHROOT_CACHE  where chroots are kept (default /var/cache/xid-ci)
#   XID_JOBS          stages at once (default 4 on 2 cores: chroots and
#                     downloads mostly wait on the network)
#   XID_SKIP_ASSERT, XID_SKIP_CODEC, XID_SKIP_PACKAGES, XID_SKIP_CLIENTS
#                     leave that part out
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
goal=all
case "${1:-}" in prepare | plan) goal=$1 && shift ;; esac
versions=${*:-15 17 18 19}
for v in $versions; do
	case "$v" in
		15 | 17 | 18 | 19) ;;
		*) echo "unsupported PostgreSQL version: $v" >&2 && exit 2 ;;
	esac
done
skip=""
[ -n "${XID_SKIP_ASSERT:-}" ] && skip="$skip assert"
[ -n "${XID_SKIP_CODEC:-}" ] && skip="$skip codec"
[ -n "${XID_SKIP_PACKAGES:-}" ] && skip="$skip packages"
[ -n "${XID_SKIP_CLIENTS:-}" ] && skip="$skip clients"
cache=${XID_CHROOT_CACHE:-/var/cache/xid-ci}
args=(-f ci/Makefile -k -j"${XID_JOBS:-4}" V="$versions" SKIP="$skip" CACHE="$cache")
if [ "$goal" = plan ]; then
	command -v make >/dev/null && exec make -s "${args[@]}" plan
	echo "ci/matrix.sh plan needs make (apt-get install make)" >&2
	exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "ci/matrix.sh needs root (apt-get, chroot, runuser)" >&2
	exit 2
fi
apt_install make debootstrap || {
	echo "FAIL installing make and debootstrap"
	echo "0 passed, 1 failed"
	exit 1
}
logs=$(mktemp -d /tmp/xid-matrix.XXXXXX)
trap 'rm -rf "$logs"' EXIT
mkdir -p "$cache"
date +%s >"$logs/t0"
read -r _ u n s i w q sq st _ </proc/stat
echo "$((u + n + s + q + sq + st)) $((i + w))" >"$logs/cpu0"
make -s "${args[@]}" LOGS="$logs" "$goal"
stages=$(make -s "${args[@]}" plan | awk 'NR > 1 { print $1 }')
[ "$goal" = prepare ] && stages=$(make -s "${args[@]}" plan | awk 'NR > 1 && $2 != "test" { print $1 }')
full=""
[ "$goal" = all ] && [ "$versions" = "15 17 18 19" ] && [ -z "$skip" ] && full=1
bash ci/report.sh "$logs" "$full" $stages
