#!/usr/bin/env bash
# bench/citus.sh [MAJOR]: xid against bigserial and uuid keys on Citus, in
# one command (default 18, in its chroot of test/chroot.sh; 17 works too).
# Needs root and the Citus source in ../shared/vendor (test/citus.sh).
#
#   BENCH_ROUNDS (3)  BENCH_SECONDS (20)  BENCH_CLIENTS (8)
#
# Builds and installs Citus and xid (test/citus.sh MAJOR install), then
# runs bench/citus-local.sh in the chroot.  Output:
# bench/out/results-citus-MAJOR.txt (copy it to bench/ to record a run).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. test/lib.sh
major=${1:-18}
dir=${XID_CHROOT_CACHE:-/var/cache/xid-ci}/pg$major
out="$top/bench/out"
mkdir -p "$out"
commit=${XID_COMMIT:-$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +changes)}

bash test/citus.sh "$major" install
copy_sources "$top" "$dir/build/xid-citus-bench"
chroot_exec "$dir" BENCH_ROUNDS="${BENCH_ROUNDS:-}" BENCH_SECONDS="${BENCH_SECONDS:-}" \
	BENCH_CLIENTS="${BENCH_CLIENTS:-}" XID_COMMIT="$commit" -- \
	bash /build/xid-citus-bench/bench/citus-local.sh "$major" /build/citus-bench-out
cp "$dir/build/citus-bench-out/results-citus-$major.txt" "$out/"
rm -rf "$dir/build/xid-citus-bench"
echo "report: bench/out/results-citus-$major.txt"
