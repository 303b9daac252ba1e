#!/usr/bin/env bash
# bench/run.sh [MAJOR]: the benchmark in one command.  Starts a throwaway
# server with fixed settings (PostgreSQL 15 from the host, or 17/18 in the
# chroots of ci/chroot.sh), loads the cases, runs each several times
# interleaved with its rivals, and prints medians and ratios.  Needs root.
#
#   BENCH_ROWS (2000000)  rows per table      BENCH_ROUNDS (5)  rounds
#
# Output: bench/out/report-MAJOR.txt, bench/out/ratios-MAJOR.tsv and the
# chart bench/ratios-MAJOR.png.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh
major=${1:-15}
out="$top/bench/out"
mkdir -p "$out"

apt_install gnuplot-nox

if [ "$major" = 15 ]; then
	apt_install postgresql-15 postgresql-server-dev-15 make gcc
	bash bench/run-local.sh /usr/lib/postgresql/15/bin/pg_config "$out"
else
	dir=${XID_CHROOT_CACHE:-/var/cache/xid-ci}/pg$major
	bash ci/chroot.sh "$major" "$dir"
	copy_sources "$top" "$dir/build/xid"
	chroot_exec "$dir" BENCH_ROWS="${BENCH_ROWS:-}" BENCH_ROUNDS="${BENCH_ROUNDS:-}" \
		XID_COMMIT="$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +changes)" -- \
		bash /build/xid/bench/run-local.sh "/usr/lib/postgresql/$major/bin/pg_config" /build/out
	cp "$dir/build/out/report-$major.txt" "$dir/build/out/ratios-$major.tsv" "$out/"
fi

# The chart: each ratio on a log scale, 1 = parity with the rival.
gnuplot <<GP
set terminal pngcairo size 1200,760 font "sans,10" noenhanced
set output "$top/bench/ratios-$major.png"
set title "xid against its rivals on PostgreSQL $major: xid's time or size divided by the rival's (log scale; below 1 = xid better)"
set style data histograms
set style fill solid 0.8 border -1
set boxwidth 0.8
set logscale y
set yrange [0.00001:10]
set grid ytics
set bmargin 16
set rmargin 24
set format y "%g"
set xtics rotate by -35 scale 0 font ",9"
set datafile separator "\t"
set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb "red" dt 2
plot "$out/ratios-$major.tsv" using 2:xtic(1) notitle lc rgb "#3b6ea5"
GP
echo "chart: bench/ratios-$major.png"
