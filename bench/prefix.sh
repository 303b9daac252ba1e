#!/usr/bin/env bash
# bench/prefix.sh: prefix lookups against bigint BETWEEN, on their own, in
# one run: 20,000 PL/pgSQL lookups "id <@ xid_prefix_range(p)" of 7-symbol
# prefixes (one row each) against as many "id BETWEEN k AND k + 1" on a
# bigint key, both planned anew for each call (custom plans), timed in
# interleaved rounds; then, when valgrind is installed, the instructions
# of one backend running each loop (callgrind), which the machine's load
# does not move.
#
# Usage: bench/prefix.sh   with PG* pointing at a server where the
# extension is installed, and PGDATA at its data directory for callgrind
# (a single-user backend; the server must be stopped for that part, which
# is skipped without PGDATA).   BENCH_ROWS (default 1000000), BENCH_ROUNDS (7)
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${BENCH_ROWS:-1000000}
rounds=${BENCH_ROUNDS:-7}
psql=(psql -X -q -v ON_ERROR_STOP=1)

"${psql[@]}" -v rows="$rows" <<'SQL'
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS bench_prefix CASCADE;
CREATE SCHEMA bench_prefix;
CREATE TABLE bench_prefix.ev_xid (id public.xid PRIMARY KEY, v int);
CREATE TABLE bench_prefix.ev_bigint (id bigint PRIMARY KEY, v int);
INSERT INTO bench_prefix.ev_xid
	SELECT public.xid_new('2025-01-01+00'::timestamptz + g * (interval '1 year' / :rows)), g
	FROM generate_series(1, :rows) AS g;
INSERT INTO bench_prefix.ev_bigint SELECT g, g FROM generate_series(1, :rows) AS g;
VACUUM ANALYZE bench_prefix.ev_xid;
VACUUM ANALYZE bench_prefix.ev_bigint;
CREATE TABLE bench_prefix.probe AS
	SELECT x.id AS xid_key, left(x.id::text, 7) AS prefix, b.id AS bigint_key
	FROM (SELECT id, row_number() OVER () AS r FROM (SELECT id FROM bench_prefix.ev_xid ORDER BY random() LIMIT 20000) s) x
	JOIN (SELECT id, row_number() OVER () AS r FROM (SELECT id FROM bench_prefix.ev_bigint ORDER BY random() LIMIT 20000) s) b USING (r);
CREATE FUNCTION bench_prefix.xid_loop() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE p text; n bigint := 0; c bigint;
BEGIN
	FOR p IN SELECT prefix FROM bench_prefix.probe LOOP
		SELECT count(*) INTO c FROM bench_prefix.ev_xid WHERE id <@ public.xid_prefix_range(p);
		n := n + c;
	END LOOP;
	RETURN n;
END $$;
CREATE FUNCTION bench_prefix.bigint_loop() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE k bigint; n bigint := 0; c bigint;
BEGIN
	FOR k IN SELECT bigint_key FROM bench_prefix.probe LOOP
		SELECT count(*) INTO c FROM bench_prefix.ev_bigint WHERE id BETWEEN k AND k + 1;
		n := n + c;
	END LOOP;
	RETURN n;
END $$;
SQL

# wall clock: rounds of both, alternating which goes first; the median of each
timing()
{
	local f=$1
	"${psql[@]}" -At -c "SELECT bench_prefix.$f()" >/dev/null
	"${psql[@]}" -At <<SQL | awk '/^Time:/ { print $2 }'
\timing on
SELECT bench_prefix.$f();
SQL
}
xs=()
bs=()
for i in $(seq 1 "$rounds"); do
	if [ $((i % 2)) -eq 1 ]; then
		xs+=("$(timing xid_loop)")
		bs+=("$(timing bigint_loop)")
	else
		bs+=("$(timing bigint_loop)")
		xs+=("$(timing xid_loop)")
	fi
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mx=$(median "${xs[@]}")
mb=$(median "${bs[@]}")
echo "wall clock, $rounds rounds of 20,000 lookups on $rows rows: xid ${xs[*]} ms; bigint ${bs[*]} ms"
echo "median: xid $mx ms, bigint $mb ms, ratio $(awk -v a="$mx" -v b="$mb" 'BEGIN { printf "%.3f", a / b }')"

# instructions (callgrind), a single-user backend per loop, less one that
# runs SELECT 1
if [ -n "${PGDATA:-}" ] && command -v valgrind >/dev/null; then
	bindir=$(dirname "$(command -v postgres 2>/dev/null || echo "$(pg_config --bindir)/postgres")")
	pg_ctl -D "$PGDATA" -w stop >/dev/null
	instr()
	{
		local out
		out=$(mktemp)
		printf 'SELECT %s;\n' "$1" | valgrind --tool=callgrind --callgrind-out-file="$out" \
			"$bindir/postgres" --single -D "$PGDATA" "${PGDATABASE:-postgres}" >/dev/null 2>&1
		callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'
		rm -f "$out"
	}
	base=$(instr 1)
	ix=$(instr "bench_prefix.xid_loop()")
	ib=$(instr "bench_prefix.bigint_loop()")
	pg_ctl -D "$PGDATA" -l "$PGDATA/../bench-prefix.log" -w start >/dev/null
	echo "instructions: xid $((ix - base)), bigint $((ib - base)), ratio" \
		"$(awk -v a=$((ix - base)) -v b=$((ib - base)) 'BEGIN { printf "%.3f", a / b }')"
fi
