#!/usr/bin/env bash
# bench/scale.sh [MAJOR]: how the cost grows with the table, in one
# command: bench/scale-local.sh on PostgreSQL MAJOR (15 from the host, 17
# and later in the chroots of ci/chroot.sh), then the plots.  Needs root.
# Not part of CI, which runs one small step of it (ci/matrix.sh's scale
# stage).  SCALE_STEPS, SCALE_ROUNDS and SCALE_SECONDS as in
# bench/scale-local.sh.
#
# Output: bench/out/scale-MAJOR.txt (the report), bench/out/scale-MAJOR.tsv
# (medians), bench/out/scale-MAJOR-raw.tsv (every figure), and the chart
# bench/scale-MAJOR.png.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(pwd)
. ci/lib.sh
major=${1:-18}
out="$top/bench/out"
mkdir -p "$out"
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo +changes)"

apt_install gnuplot-nox

if [ "$major" = 15 ]; then
	apt_install postgresql-15 postgresql-server-dev-15 make gcc
	XID_COMMIT=$commit bash bench/scale-local.sh /usr/lib/postgresql/15/bin/pg_config "$out"
else
	dir=${XID_CHROOT_CACHE:-/var/cache/xid-ci}/pg$major
	bash ci/chroot.sh "$major" "$dir"
	copy_sources "$top" "$dir/build/xid"
	chroot_exec "$dir" SCALE_STEPS="${SCALE_STEPS:-}" SCALE_ROUNDS="${SCALE_ROUNDS:-}" \
		SCALE_SECONDS="${SCALE_SECONDS:-}" XID_COMMIT="$commit" -- \
		bash /build/xid/bench/scale-local.sh "/usr/lib/postgresql/$major/bin/pg_config" /build/out
	cp "$dir/build/out/scale-$major.txt" "$dir/build/out/scale-$major.tsv" "$dir/build/out/scale-$major-raw.tsv" "$out/"
fi

# The chart: six panels, the rows on a log scale, a line per key type
# (bench/out/scale-MAJOR.tsv: step, metric, xid, bigserial, uuid4, uuid7)
tsv="$out/scale-$major.tsv"
gnuplot <<GP
set terminal pngcairo size 1400,1500 font "sans,10" noenhanced
set output "$top/bench/scale-$major.png"
set datafile separator "\t"
set datafile missing "NaN"
set logscale x
set format x "%.0s%c"
set xlabel "rows in the table"
set grid
set key top left
set style line 1 lc rgb "#3b6ea5" lw 2 pt 7
set style line 2 lc rgb "#7f7f7f" lw 2 pt 5
set style line 3 lc rgb "#c0392b" lw 2 pt 9
set style line 4 lc rgb "#27ae60" lw 2 pt 11
set multiplot layout 3,2 title "xid, bigserial, uuid v4 and uuidv7() as the table grows, PostgreSQL $major (shared_buffers 1GB; xid $commit)"
panel(m) = sprintf("< awk -F'\t' '\$2 == \"%s\"' $tsv", m)
do for [m in "insert_rows_s_1 insert_rows_s_2 wal_bytes_row pk_mb point_cold_ms window_cold_ms"] {
	if (m eq "insert_rows_s_1") { set title "inserts, rows/s, 1 session (10 rows a commit; higher is better)"; unset logscale y }
	if (m eq "insert_rows_s_2") { set title "inserts, rows/s, 2 sessions (higher is better)"; unset logscale y }
	if (m eq "wal_bytes_row") { set title "WAL bytes per row inserted (log; lower is better)"; set logscale y }
	if (m eq "pk_mb") { set title "primary key, MB (log; lower is better)"; set logscale y }
	if (m eq "point_cold_ms") { set title "point lookup, cold cache, ms (lower is better)"; unset logscale y }
	if (m eq "window_cold_ms") { set title "one hour of history (36,000 rows), cold cache, ms (xid: its key; rivals: an index on created_at)"; unset logscale y }
	plot panel(m) using 1:3 with linespoints ls 1 title "xid", \
		'' using 1:4 with linespoints ls 2 title "bigserial", \
		'' using 1:5 with linespoints ls 3 title "uuid v4", \
		'' using 1:6 with linespoints ls 4 title "uuidv7()"
}
unset multiplot
GP
echo "chart: bench/scale-$major.png"
