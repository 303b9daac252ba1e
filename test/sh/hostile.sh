#!/usr/bin/env bash
# test/sh/hostile.sh: the generated hostile-argument suite.  Every operator
# and SQL-callable function of the extension, found in the catalog, with
# arguments of every shape (the indexed column, another column, constants
# at the edges, invalid and over-long text, LIKE wildcards and escapes,
# NULL, an expression, a parameter of a generic plan on either side, an
# init-plan sub-select, the outer column of a join, arrays with ANY/ALL,
# name/varchar/char text, COLLATE "C" and a nondeterministic collation), in
# every place (a plain table, range and hash partitions, an inheritance
# parent, views, a domain over xid, CHECK constraints, partial indexes, row
# security, BRIN) and context (alone, NOT, OR, CASE, a join clause).  Each
# query must return the rows of its row-by-row oracle, or raise the error
# the oracle raises; no query may crash the server (test/hostile/).
#
# It runs as the roles of a shared server: a database owner without
# superuser installs the trusted extension and makes the tables, and an
# ordinary role runs the queries.
#
# Called by ci/suite.sh with XID_BINDIR, XID_MAJOR, XID_WORK and the PG*
# variables of a running cluster.  XID_HOSTILE_QUERIES is how many of the
# generated queries run (default 50000, a share of each operator's and
# function's queries, at least one, chosen by a hash of their text and a
# salt; "all" runs every one, about 500,000, two minutes on PostgreSQL 18
# here).
# The salt is new each run and printed (XID_HOSTILE_SALT=N repeats a run's
# sample): each version's suite and each run test other queries, so that
# the runs together cover the whole set at a tenth of its time each.
# XID_HOSTILE_DISCARD_CACHES=1 (ci/suite.sh's XID_DISCARD_CACHES, on a
# server built with assertions): each query is planned and run with
# debug_discard_caches = 1, its oracle without; the superuser grants the
# unprivileged role SET on that parameter, so that the queries still run
# as that role.
set -uo pipefail
cd "$(dirname "$0")/../.."

bindir=$XID_BINDIR
work=$XID_WORK
mkdir -p "$work"
db=xid_hostile
batch=${XID_HOSTILE_BATCH:-2000}
psql=("$bindir/psql" -X -q -v ON_ERROR_STOP=1)

"${psql[@]}" -d postgres <<SQL || exit 1
SET client_min_messages = warning;
DROP DATABASE IF EXISTS $db;
DO \$\$
DECLARE
	p text;
BEGIN
	IF to_regrole('hostile_user') IS NOT NULL THEN
		FOR p IN SELECT parname FROM pg_parameter_acl LOOP
			EXECUTE format('REVOKE ALL ON PARAMETER %I FROM hostile_user', p);
		END LOOP;
	END IF;
END \$\$;
DROP ROLE IF EXISTS hostile_owner;
DROP ROLE IF EXISTS hostile_user;
CREATE ROLE hostile_owner LOGIN;
CREATE ROLE hostile_user LOGIN;
CREATE DATABASE $db OWNER hostile_owner;
SQL
discard=false
if [ -n "${XID_HOSTILE_DISCARD_CACHES:-}" ]; then
	discard=true
	"${psql[@]}" -d postgres -c "GRANT SET ON PARAMETER debug_discard_caches TO hostile_user" || exit 1
fi
"${psql[@]}" -U hostile_owner -d $db -f test/hostile/setup.sql >"$work/setup.log" 2>&1 &&
	"${psql[@]}" -U hostile_owner -d $db -f test/hostile/generate.sql >>"$work/setup.log" 2>&1 || {
	cat "$work/setup.log"
	echo "FAIL the suite's setup"
	exit 1
}
sample=${XID_HOSTILE_QUERIES:-50000}
salt=${XID_HOSTILE_SALT:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
case "$salt" in
	'' | *[!0-9]*)
		echo "FAIL XID_HOSTILE_SALT must be a number, not '$salt'"
		exit 1
		;;
esac
# the operator or function a query tests (its ANY/ALL and volatile forms
# counted as one): the unit the sample shares out and the count reports
member="regexp_replace(what, ' (ANY|ALL|volatile)\$', '')"
if [ "$sample" != all ]; then
	# a sample that keeps every operator and function (each its share of
	# the sample, one at least), the queries of each chosen by a hash of
	# their text and the salt
	"${psql[@]}" -U hostile_owner -d $db -c "
		DELETE FROM hostile.queries AS h USING (
			SELECT qno,
				   row_number() OVER (PARTITION BY op ORDER BY hashtext(q || ' $salt'), qno) AS k,
				   count(*) OVER (PARTITION BY op) AS n
			FROM (SELECT qno, q, $member AS op FROM hostile.queries) AS o) AS s
		WHERE h.qno = s.qno
		  AND s.k > greatest(1, round(s.n * $sample / (SELECT count(*) FROM hostile.queries)))" || exit 1
fi
read -r total members places < <("${psql[@]}" -At -F ' ' -U hostile_owner -d $db -c "
	SELECT (SELECT count(*) FROM hostile.queries),
		   (SELECT count(DISTINCT $member) FROM hostile.queries),
		   (SELECT count(DISTINCT place) FROM hostile.queries)")
maxq=$("${psql[@]}" -At -U hostile_owner -d $db -c "SELECT max(qno) FROM hostile.queries")

# Index paths wherever there is one (before 18 a disabled sequential scan
# costs 1e10, which would make every query worth compiling: no JIT), generic
# plans for parameters and in the oracles, and constraint exclusion on
# plain tables too (the CHECK constraints of p_check).
settings="SET enable_seqscan = off; SET jit = off; SET plan_cache_mode = force_generic_plan;
SET constraint_exclusion = on; SET search_path = public;"

# wait for the server to accept connections again after a crash
wait_server()
{
	local i
	for i in $(seq 1 120); do
		"$bindir/pg_isready" -q -d $db && return 0
		sleep 0.5
	done
	return 1
}

results="$work/results.txt"
: >"$results"
crashes="$work/crashes.txt"
: >"$crashes"

# run_range LO HI: queries LO..HI; where the server dies, the two halves
# again, down to the queries that kill it
run_range()
{
	local lo=$1 hi=$2 mid
	if "${psql[@]}" -At -F '|' -U hostile_user -d $db \
		-c "$settings SELECT * FROM hostile.run($lo, $hi, $discard)" >"$work/batch.out" 2>"$work/batch.err"; then
		cat "$work/batch.out" >>"$results"
		return 0
	fi
	grep -v '^$' "$work/batch.err" | head -3
	wait_server || { echo "FAIL the server did not come back"; exit 1; }
	if [ "$lo" -eq "$hi" ]; then
		echo "$lo" >>"$crashes"
		return 0
	fi
	mid=$(((lo + hi) / 2))
	run_range "$lo" "$mid"
	run_range $((mid + 1)) "$hi"
}

lo=1
while [ "$lo" -le "$maxq" ]; do
	run_range "$lo" $((lo + batch - 1))
	lo=$((lo + batch))
done

ran=$(wc -l <"$results")
count() { awk -F'|' -v o="$1" '$2 == o { n++ } END { print n + 0 }' "$results"; }
same=$(count same)
both=$(count both)
oracle=$(count oracle)
wrong=$(count wrong)
unexpected=$(count unexpected)
crashed=$(wc -l <"$crashes")

[ "$sample" = all ] || echo "sample $salt (XID_HOSTILE_SALT=$salt runs the same queries)"
echo "$total queries over $members operators and functions in $places places:" \
	"$same same rows, $both the oracle's error, $oracle error only in the oracle;" \
	"$crashed crashes, $wrong wrong results, $unexpected unexpected errors"
show()
{
	local qno
	while read -r qno rest; do
		echo "  #$qno $rest"
		"${psql[@]}" -At -U hostile_owner -d $db -c "
			SELECT format('    %s in %s (%s)%s', what, place, ctx, coalesce(' with \$1 = ' || pval, ''))
				   || E'\n    query:  ' || q || E'\n    oracle: ' || o
			FROM hostile.queries WHERE qno = $qno"
	done | head -60
}
status=0
if [ "$crashed" -gt 0 ]; then
	echo "crashing queries:"
	show <"$crashes"
	status=1
fi
if [ "$wrong" -gt 0 ] || [ "$unexpected" -gt 0 ]; then
	echo "wrong results and unexpected errors:"
	awk -F'|' '$2 == "wrong" || $2 == "unexpected" { print $1, $2 ": " $3 }' "$results" | show
	status=1
fi
if [ "$((ran + crashed))" -ne "$total" ]; then
	echo "ran $ran of $total queries"
	status=1
fi
exit $status
