#!/usr/bin/env bash
# ci/replication.sh: logical replication of xid columns between two
# running servers (the same or different major versions).  ci/matrix.sh
# runs it through ci/rep_subscriber.sh, from 15 to 17, 18 and 19;
# test/t/050_replication.pl makes the same checks between two servers of
# one version that it starts itself: a change to one belongs in the other.
#
# Environment:
#   REP_PSQL          psql to use (any version that talks to both)
#   REP_PUB, REP_SUB  psql connection options of the publisher and the
#                     subscriber (e.g. "-h 127.0.0.1 -p 5432 -U postgres")
#   REP_PUB_CONNINFO  the publisher as the subscriber reaches it
#   REP_WORK          a directory for logs
# The publisher runs with wal_level = logical; both have xid installed.
#
# A table with an xid primary key, an xid column and an xidrange column,
# and one with REPLICA IDENTITY FULL and no key, replicate in text mode
# and with binary = true (one subscriber database each): initial copy,
# then INSERT, UPDATE and DELETE by id.  Afterwards the subscriber holds
# exactly the publisher's rows (EXCEPT both ways, every column).
set -euo pipefail
. "$(dirname "$0")/check.sh"
export PGOPTIONS="-c client_min_messages=warning"
work=${REP_WORK:?}
mkdir -p "$work"
read -r -a pub_args <<<"${REP_PUB:?}"
read -r -a sub_args <<<"${REP_SUB:?}"
psql=${REP_PSQL:?}

pub() { "$psql" -X -q -At -v ON_ERROR_STOP=1 "${pub_args[@]}" -d xid_rep "$@"; }
sub() # sub DB SQL...
{
	local db=$1
	shift
	"$psql" -X -q -At -v ON_ERROR_STOP=1 "${sub_args[@]}" -d "$db" "$@"
}
tables="rep_key rep_full"
schema="
CREATE EXTENSION IF NOT EXISTS xid;
CREATE TABLE rep_key (id public.xid PRIMARY KEY, ref public.xid, span public.xidrange, v int);
CREATE TABLE rep_full (id public.xid NOT NULL, ref public.xid, span public.xidrange, v int);
ALTER TABLE rep_full REPLICA IDENTITY FULL;"

cleanup()
{
	local db
	for db in xid_rep_text xid_rep_binary; do
		sub postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
	done
	"$psql" -X -q "${pub_args[@]}" -d postgres -c "SET client_min_messages = warning" \
		-c "DROP DATABASE IF EXISTS xid_rep WITH (FORCE)" || true
}
trap cleanup EXIT

"$psql" -X -q -v ON_ERROR_STOP=1 "${pub_args[@]}" -d postgres -c "CREATE DATABASE xid_rep"
pub -c "$schema"
pub <<'SQL'
INSERT INTO rep_key
SELECT public.xid_new(), public.xid_new('2025-01-01+00'::timestamptz + g * interval '1 hour'),
       CASE WHEN g % 3 = 0 THEN public.xid_time_range(tstzrange('2025-01-01+00'::timestamptz + g * interval '1 day', NULL))
            WHEN g % 3 = 1 THEN public.xid_prefix_range(left(public.xid_new()::text, 1 + g % 11))
            ELSE NULL END,
       g
FROM generate_series(1, 2000) AS g;
INSERT INTO rep_full SELECT * FROM rep_key;
CREATE PUBLICATION xid_pub FOR TABLE rep_key, rep_full;
SQL

for mode in text binary; do
	db=xid_rep_$mode
	sub postgres -c "CREATE DATABASE $db"
	sub "$db" -c "$schema"
	sub "$db" -c "CREATE SUBSCRIPTION xid_sub_$mode CONNECTION '$REP_PUB_CONNINFO dbname=xid_rep'
		PUBLICATION xid_pub WITH (binary = $([ $mode = binary ] && echo true || echo false), slot_name = 'xid_slot_$mode')"
done

# wait_same DB: until the subscriber's rows hash like the publisher's
digest="SELECT md5(string_agg(t, E'\n' ORDER BY t)) FROM (
	SELECT 'k ' || r::text AS t FROM rep_key r UNION ALL SELECT 'f ' || r::text FROM rep_full r) s"
wait_same()
{
	local db=$1 want i
	want=$(pub -c "$digest")
	for i in $(seq 1 120); do
		[ "$(sub "$db" -c "$digest")" = "$want" ] && return 0
		sleep 0.5
	done
	return 1
}
# compare DB WHAT: every row and column equal, EXCEPT both ways
compare()
{
	local db=$1 what=$2 t only_pub only_sub
	for t in $tables; do
		sub "$db" -c "DROP TABLE IF EXISTS pub_$t" -c "CREATE TABLE pub_$t (LIKE $t)"
		pub -c "COPY $t TO STDOUT" | sub "$db" -c "COPY pub_$t FROM STDIN"
		only_pub=$(sub "$db" -c "SELECT count(*) FROM (SELECT * FROM pub_$t EXCEPT ALL SELECT * FROM $t) s")
		only_sub=$(sub "$db" -c "SELECT count(*) FROM (SELECT * FROM $t EXCEPT ALL SELECT * FROM pub_$t) s")
		n=$(sub "$db" -c "SELECT count(*) FROM $t")
		check "$db $what: $t has the publisher's $n rows ($only_pub missing, $only_sub extra)" \
			'[ "$only_pub" = 0 ] && [ "$only_sub" = 0 ] && [ "$n" -gt 0 ]'
	done
}

for mode in text binary; do
	check "initial copy reaches xid_rep_$mode" 'wait_same xid_rep_'$mode
	compare "xid_rep_$mode" "after the initial copy"
done

pub <<'SQL'
INSERT INTO rep_key
SELECT public.xid_new(), NULL, public.xid_prefix_range('5cnE'), 10000 + g FROM generate_series(1, 500) AS g;
INSERT INTO rep_full SELECT * FROM rep_key WHERE v > 10000;
UPDATE rep_key SET v = -v, ref = public.xid_new(), span = public.xid_time_range('[2026-01-01+00, 2026-02-01+00)')
WHERE id IN (SELECT id FROM rep_key WHERE v % 7 = 0);
UPDATE rep_full SET v = -v, span = NULL WHERE id IN (SELECT id FROM rep_full WHERE v % 5 = 0);
DELETE FROM rep_key WHERE id IN (SELECT id FROM rep_key WHERE v % 11 = 0);
DELETE FROM rep_full WHERE id IN (SELECT id FROM rep_full WHERE v % 13 = 0);
SQL
for mode in text binary; do
	check "INSERT, UPDATE and DELETE reach xid_rep_$mode" 'wait_same xid_rep_'$mode
	compare "xid_rep_$mode" "after INSERT, UPDATE and DELETE"
done
for mode in text binary; do
	sub "xid_rep_$mode" -c "DROP SUBSCRIPTION xid_sub_$mode"
done
