# The online move of a table's key to xid (xid_move_*), run by the
# database owner (not a superuser) while 8 pgbench writers insert, update
# and delete, with an immediate stop in the middle of the backfill and in
# the middle of the swap, each followed by a resumed move.
#
# Afterwards: the rows nobody wrote are unchanged (checksums), the writers'
# committed work is all there and nothing else (a ledger they write in the
# same transactions), every foreign key is valid, the ids are unique, each
# the one xid_from_key() gives, and in time order.  Notes the writers'
# latency distribution: its maximum bounds the longest lock wait.
# What the move refuses (no primary key, a composite key, a referencing
# table of another owner) fails with its SQLSTATE and changes nothing;
# abort before and after the swap puts everything back, and is refused once
# the finish began.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep time);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = xid_node('move',
	conf => "max_connections = 40\nlog_lock_waits = on\ndeadlock_timeout = '100ms'");
my $bindir = $node->config_data('--bindir');
plan skip_all => "no pgbench in $bindir" unless -x "$bindir/pgbench";

$node->safe_psql('postgres', 'CREATE ROLE mover LOGIN; CREATE DATABASE movedb OWNER mover');
my $mover = $node->connstr('movedb') . ' user=mover';
# sql(SQL): SQL run by the owner, its output; dies on an error
sub sql { return $node->safe_psql('movedb', $_[0], connstr => $mover); }
sub check { my ($name, $query) = @_; is(sql($query), 't', $name); }
# try_sql(SQL): SQL run by the owner with verbose errors: exit code, stderr
sub try_sql
{
	my ($rc, undef, $err) = $node->psql('movedb', $_[0],
		connstr => $mover, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return ($rc, $err);
}
sub fails_like { my ($query, $re, $name) = @_; like((try_sql($query))[1], $re, $name); }
# bg(SQL): SQL run by the owner in the background, its harness
sub bg { return IPC::Run::start([ 'psql', '-X', '-q', '-d', $mover, '-c', $_[0] ], '>', \my $o, '2>', \my $e); }
# to_swap(TABLE, [START_ARGS]): a move of TABLE from its start to its swap
sub to_swap
{
	my ($t, $args) = @_;
	$args = $args ? ", $args" : '';
	sql("CALL public.xid_move_start('$t'$args);
		CALL public.xid_move_backfill('$t');
		SELECT * FROM public.xid_move_index_commands('$t') \\gexec
		CALL public.xid_move_validate('$t');
		CALL public.xid_move_swap('$t');");
}

sql(q{
CREATE EXTENSION xid;
CREATE EXTENSION xid_move;
-- the parent, in a schema and with a name that need quoting
CREATE SCHEMA "Shop";
CREATE TABLE "Shop"."Order Items" (
	id bigserial PRIMARY KEY,
	created_at timestamptz NOT NULL DEFAULT now(),
	n bigint NOT NULL,
	v bigint NOT NULL DEFAULT 0);
CREATE INDEX ON "Shop"."Order Items" (n);
-- 50 rows per millisecond: many rows share a time, as rows of one
-- transaction share now()
INSERT INTO "Shop"."Order Items" (created_at, n)
SELECT '2026-01-01+00'::timestamptz + (g / 50) * interval '1 ms', g FROM generate_series(1, 20000) g;
-- two children in another schema; one is partitioned
CREATE TABLE public.notes (
	nid bigserial PRIMARY KEY,
	item_id bigint NOT NULL REFERENCES "Shop"."Order Items" ON DELETE CASCADE,
	n bigint NOT NULL);
CREATE INDEX ON public.notes (item_id);
CREATE INDEX ON public.notes (n);
INSERT INTO public.notes (item_id, n) SELECT 1 + (g * 7) % 20000, g FROM generate_series(1, 10000) g;
CREATE TABLE public.events (
	eid bigint NOT NULL,
	at date NOT NULL,
	item_id bigint REFERENCES "Shop"."Order Items",
	n bigint) PARTITION BY RANGE (at);
CREATE TABLE public.events_1 PARTITION OF public.events FOR VALUES FROM ('2026-01-01') TO ('2026-07-01');
CREATE TABLE public.events_2 PARTITION OF public.events FOR VALUES FROM ('2026-07-01') TO ('2100-01-01');
CREATE INDEX ON public.events (item_id);
INSERT INTO public.events
SELECT g, '2026-01-01'::date + g % 360, CASE WHEN g % 10 = 0 THEN NULL ELSE 1 + (g * 13) % 20000 END, g
FROM generate_series(1, 10000) g;
-- the writers' ledger: what they committed, written in the same transactions
CREATE TABLE public.wlog (n bigint);
CREATE TABLE public.wupd (n bigint);
CREATE TABLE public.wdel (n bigint);
ANALYZE "Shop"."Order Items", public.notes, public.events;
-- the contents no writer touches (n <= 20000), as they are now
CREATE TABLE public.before AS
SELECT (SELECT md5(string_agg(format('%s|%s|%s|%s', id, created_at, n, v), ',' ORDER BY id))
        FROM "Shop"."Order Items" WHERE n <= 20000) AS parent,
       (SELECT md5(string_agg(format('%s|%s|%s', nid, item_id, n), ',' ORDER BY nid))
        FROM public.notes WHERE n <= 10000) AS notes,
       (SELECT md5(string_agg(format('%s|%s|%s|%s', eid, at, item_id, n), ',' ORDER BY eid))
        FROM public.events WHERE n <= 10000) AS events;
CREATE INDEX ON public.wlog (n);
});

# The writers: a new parent with a note and an event, an update of a
# parent row and a delete of a note, all of rows the writers made; the same
# SQL works before and after the swap (no key type is written).
# bench/move.sh runs this script too, a copy of it.
my $script = PostgreSQL::Test::Utils::tempdir() . '/writer.sql';
append_to_file($script, q{\set r random(1000001, 2000000000)
\set u random(1000001, 2000000000)
BEGIN;
INSERT INTO "Shop"."Order Items" (n) VALUES (:r);
INSERT INTO public.notes (item_id, n) SELECT id, :r FROM "Shop"."Order Items" WHERE n = :r LIMIT 1;
INSERT INTO public.events (eid, at, item_id, n) SELECT :r, '2026-11-25', id, :r FROM "Shop"."Order Items" WHERE n = :r LIMIT 1;
INSERT INTO public.wlog VALUES (:r);
WITH u AS (UPDATE "Shop"."Order Items" SET v = v + 1
           WHERE n = (SELECT max(n) FROM public.wlog WHERE n < :u) RETURNING n)
INSERT INTO public.wupd SELECT n FROM u;
WITH d AS (DELETE FROM public.notes WHERE n = (SELECT min(n) FROM public.wlog WHERE n > :u) RETURNING n)
INSERT INTO public.wdel SELECT n FROM d;
COMMIT;
});
my @writer = ('-n', '-c', '8', '-j', '4', '-f', $script, '-U', 'mover');
# phases 2 and 4: writers from before their first step to after their
# last, each transaction's latency logged; a run with a failed client fails
my (@steps, @phases);
sub stamp { push @steps, [ time, $_[0] ]; }
sub writers_until
{
	my ($w, $phase) = @_;
	my ($runs, @failed) = stop_writers($w);
	push @phases, [ $w, $runs ];
	is(scalar @failed, 0, "no writer failed in phase $phase ($runs runs)") or diag($failed[0]);
}
my $T = '"Shop"."Order Items"';

# the dry run prints the plan and changes nothing
my ($rc, $dry) = try_sql("CALL xid_move_start('$T', time_column => 'created_at', dry_run => true)");
like($dry, qr/No two existing rows would share an id/, 'the dry run prints the plan');
check('the dry run changes nothing', "SELECT NOT EXISTS (SELECT FROM pg_attribute WHERE attname LIKE '%_xid' AND NOT attisdropped
	AND attrelid IN ('$T'::regclass, 'notes'::regclass, 'events'::regclass)) AND NOT EXISTS (SELECT FROM public.xid_move_moves)");

# phase 1: start and backfill under writers, stopped in the middle
my $w1 = IPC::Run::start([ 'pgbench', '-h', $node->host, '-p', $node->port, '-T', '20', @writer, 'movedb' ],
	'>', \my $w1_out, '2>&1');
sleep 1;
sql("CALL xid_move_start('$T', time_column => 'created_at')");
fails_like("CALL xid_move_backfill('$T', $_->[0])", qr/22023: $_->[1]/, "xid_move_backfill with $_->[0] fails with 22023")
  for [ 'batch_blocks => 0', 'batch_blocks must be at least 1' ], [ 'batch_blocks => NULL', 'batch_blocks must be at least 1' ],
  [ "batch_time => '-1s'", 'batch_time must not be negative' ];
my $backfill = bg("CALL xid_move_backfill('$T', batch_blocks => 4, pause => '30ms')");
$node->poll_query_until('movedb', "SELECT sum(blocks_done) >= 60 FROM xid_move_status('$T')");
$node->stop('immediate');
$_->finish for $backfill, $w1;
$node->start;
check('after a crash in the backfill, its progress is kept',
	"SELECT sum(blocks_done) BETWEEN 60 AND sum(blocks) - 1 AND bool_and(step = 'started') FROM xid_move_status('$T')");

# phase 2: resume; indexes; validate; writers from before the first step
# to after the last
my $log2 = -s $node->logfile;
my $w = writers($node, PostgreSQL::Test::Utils::tempdir(), @writer, '-l', 'movedb');
stamp('backfill');
sql("CALL xid_move_backfill('$T', batch_blocks => 32)");
check('the resumed backfill completes',
	"SELECT bool_and(blocks_done = blocks AND step = 'backfilled') FROM xid_move_status('$T')");
stamp('index-commands');
sql("SELECT * FROM xid_move_index_commands('$T') \\gexec");
stamp('validate');
sql("CALL xid_move_validate('$T')");
stamp('end-of-phase-2');
sleep 1;
writers_until($w, 2);
my $log2_end = -s $node->logfile;

# phase 3: a swap that cannot get its locks, stopped while it retries
my $locker = bg('BEGIN; LOCK public.notes IN SHARE MODE; SELECT pg_sleep(30); COMMIT');
sleep 0.5;
my $swap = bg("CALL xid_move_swap('$T', lock_timeout => '100ms', retries => 1000)");
sleep 1.5;
$node->stop('immediate');
$_->finish for $locker, $swap;
$node->start;
check('after a crash in the swap, nothing of it is done',
	"SELECT (SELECT step FROM xid_move_status('$T') LIMIT 1) = 'validated'
	    AND (SELECT atttypid = 'int8'::regtype FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id')");

# phase 4: the swap and the finish under writers, from before the first
# step to after the last
my $log4 = -s $node->logfile;
$w = writers($node, PostgreSQL::Test::Utils::tempdir(), @writer, '-l', 'movedb');
stamp('validate-again');
sql("CALL xid_move_validate('$T')");
stamp('swap');
($rc, my $swapped) = try_sql("CALL xid_move_swap('$T')");
is($rc, 0, 'the swap under the writers succeeds') or diag($swapped);
stamp('after-swap');
sleep 1;
stamp('finish');
sql("CALL xid_move_finish('$T')");
stamp('end');
sleep 1;
writers_until($w, 4);

# what the move left
check('the key is an xid, the old key kept with a unique index',
	"SELECT (SELECT atttypid = 'public.xid'::regtype FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id')
	    AND (SELECT atttypid = 'int8'::regtype FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id_old')
	    AND EXISTS (SELECT FROM pg_constraint WHERE conrelid = '$T'::regclass AND contype = 'u')
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)");
check('every foreign key references the new key and is valid',
	"SELECT count(*) = 4 AND bool_and(convalidated) AND bool_and(confkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = '$T'::regclass AND attname = 'id')])
	 FROM pg_constraint WHERE contype = 'f' AND confrelid = '$T'::regclass");
check('the rows no writer touched are unchanged', q{
	SELECT b.parent = (SELECT md5(string_agg(format('%s|%s|%s|%s', id_old, created_at, n, v), ',' ORDER BY id_old)) FROM "Shop"."Order Items" WHERE n <= 20000)
	    AND b.notes = (SELECT md5(string_agg(format('%s|%s|%s', nid, item_id_old, n), ',' ORDER BY nid)) FROM public.notes WHERE n <= 10000)
	    AND b.events = (SELECT md5(string_agg(format('%s|%s|%s|%s', eid, at, item_id_old, n), ',' ORDER BY eid)) FROM public.events WHERE n <= 10000)
	 FROM public.before b});
check(q{the writers' committed work is all there, and nothing else}, q{
	SELECT (SELECT count(*) FROM "Shop"."Order Items" WHERE n > 1000000) = (SELECT count(*) FROM public.wlog)
	    AND (SELECT count(*) FROM public.events WHERE n > 1000000) = (SELECT count(*) FROM public.wlog)
	    AND (SELECT count(*) FROM public.notes WHERE n > 1000000) = (SELECT count(*) FROM public.wlog) - (SELECT count(*) FROM public.wdel)
	    AND (SELECT sum(v) FROM "Shop"."Order Items" WHERE n > 1000000) = (SELECT count(*) FROM public.wupd)
	    AND (SELECT count(*) FROM public.wlog) > 100});
check('each child row references the parent it referenced', q{
	SELECT NOT EXISTS (SELECT FROM public.notes c JOIN "Shop"."Order Items" p ON p.id = c.item_id WHERE c.item_id_old IS NOT NULL AND c.item_id_old <> p.id_old)
	    AND NOT EXISTS (SELECT FROM public.events c JOIN "Shop"."Order Items" p ON p.id = c.item_id WHERE c.item_id_old IS NOT NULL AND c.item_id_old <> p.id_old)
	    AND NOT EXISTS (SELECT FROM public.events c WHERE (c.item_id IS NULL) <> (c.item_id_old IS NULL) AND c.n <= 10000)});
check(q{the ids are unique, and made from each row's time and old key}, q{
	SELECT count(DISTINCT id) = count(*) AND count(*) FILTER (WHERE n <= 20000 AND id <> public.xid_from_key(created_at, id_old)) = 0
	FROM "Shop"."Order Items"});
check('rows in id order are in time order', q{
	SELECT count(*) = 0 FROM (SELECT created_at, lag(created_at) OVER (ORDER BY id) AS prev FROM "Shop"."Order Items" WHERE n <= 20000) s
	WHERE date_trunc('milliseconds', prev) > date_trunc('milliseconds', created_at)});

# the writers' latencies (microseconds, third field of pgbench's log) in
# phases 2 and 4, every step of the move but the two cut short by a crash:
# the longest bounds the longest any writer waited on a lock
my @lat = sort { $a->[0] <=> $b->[0] }
  map { my @f = split; [ $f[2], $f[4] + $f[5] / 1e6 ] }
  map { split /\n/, slurp_file($_) } map { glob "$_->[0]{dir}/pgbench_log.*" } @phases;
my $nlat = @lat;
my $ms = sub { int($lat[ int(($_[0] * $nlat + 999) / 1000) - 1 ][0] / 1000) };
my $max = $nlat ? $lat[-1][0] : 0;
# the step the slowest transaction ended in
my $during = (map { $_->[1] } grep { $nlat && $_->[0] <= $lat[-1][1] } @steps)[-1] // 'before the backfill';
note("writers during the resumed backfill, the indexes, validate, swap and finish: $nlat transactions in "
	  . ($phases[0][1] + $phases[1][1]) . ' runs of 2 s, latency p50 ' . $ms->(500) . ' ms, p99 ' . $ms->(990)
	  . ' ms, p99.9 ' . $ms->(999) . ' ms, max ' . int($max / 1000) . " ms (ended during: $during)") if $nlat;
note($1) if $swapped =~ /(table .* swapped to xid.*)/;
# lock waits of 100 ms or more (deadlock_timeout), from log_lock_waits
my $log = slurp_file($node->logfile);
my @waits = sort { $a->[0] <=> $b->[0] }
  map { /acquired ([A-Za-z]+) on (.*) after ([0-9.]+) ms/ ? [ $3, "$1 on $2" ] : () }
  split /\n/, substr($log, $log2, $log2_end - $log2) . substr($log, $log4);
note('lock waits of 100 ms or more in those steps: ' . @waits
	  . (@waits ? ", the longest $waits[-1][0] ms ($waits[-1][1])" : ''));
# The goal (a lock wait of at most 1 s) is bench/move.sh's to show; here,
# on a CI machine that runs other stages beside this one, a wait of 5 s
# fails
cmp_ok($nlat, '>', 100, 'the writers made more than 100 transactions in phases 2 and 4');
cmp_ok($max, '<', 5_000_000, 'no writer transaction took 5 s');
cmp_ok(@waits ? $waits[-1][0] : 0, '<', 5000, 'no lock wait of 5 s');

# what the move refuses: a clear error, nothing changed
sql(q{
CREATE TABLE public.nopk (a bigint, t timestamptz);
CREATE TABLE public.comp (a bigint, b bigint, t timestamptz, PRIMARY KEY (a, b));
CREATE TABLE public.owned (id bigint PRIMARY KEY, t timestamptz);
CREATE TABLE public.v4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
INSERT INTO public.v4 DEFAULT VALUES;
});
$node->safe_psql('movedb', 'CREATE TABLE public.foreign_child (x bigint REFERENCES public.owned)');
my $snapshot = q{SELECT md5(string_agg(format('%s %s %s', attrelid::regclass, attname, atttypid::regtype), ',' ORDER BY 1))
	FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = 'public'::regnamespace};
my $s0 = sql($snapshot);
fails_like("CALL xid_move_start('public.$_->[0]', time_column => 't')", qr/$_->[1]: table \S*$_->[0] cannot be moved to xid/,
	"xid_move_start refuses $_->[2] with $_->[1]")
  for [ 'nopk', '55000', 'a table without a primary key' ], [ 'comp', '0A000', 'a composite key' ],
  [ 'owned', '42501', 'a referencing table of another owner' ];
fails_like("CALL xid_move_start('public.v4')", qr/22023: table \S*v4 cannot be moved to xid/,
	'xid_move_start refuses random uuids without a time column with 22023');
is(sql($snapshot), $s0, 'a refused move changes no table');
# every step, and the procedures the steps call, on a table with no move
fails_like("CALL public.$_", qr/55000: no move of table \S+ is under way/, "$_ without a move fails with 55000")
  for "xid_move_backfill('public.owned')", "xid_move_validate('public.owned')", "xid_move_swap('public.owned')",
  "xid_move_finish('public.owned')", "xid_move_abort('public.owned')", 'xid_move_abort(NULL)',
  "xid_move_swap_back('public.owned', '1s', 1)", "xid_move_fk_validate('public.owned', '1s', 1)",
  "xid_move_not_null_checks('public.owned', true, '1s', 1)";

# a uuid key: a uuidv7 keeps its own time (no time column); abort undoes a
# move before its swap, and after it
sql(q{
CREATE TABLE public.u7 (id uuid PRIMARY KEY, note text);
INSERT INTO public.u7 SELECT x::uuid, x::text FROM (SELECT public.xid_new() AS x FROM generate_series(1, 500)) g;
CREATE TABLE public.u7c (u uuid REFERENCES public.u7);
INSERT INTO public.u7c SELECT id FROM public.u7;
CREATE TABLE public.u7p (u uuid NOT NULL REFERENCES public.u7 ON DELETE CASCADE, k int NOT NULL) PARTITION BY RANGE (k);
CREATE TABLE public.u7p_1 PARTITION OF public.u7p FOR VALUES FROM (0) TO (100);
CREATE TABLE public.u7p_2 PARTITION OF public.u7p FOR VALUES FROM (100) TO (1000);
INSERT INTO public.u7p SELECT id, row_number() OVER () % 200 FROM public.u7;
CREATE TABLE public.u7_shape AS
SELECT a.attrelid::regclass::text AS rel, a.attname, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull
FROM pg_attribute a WHERE a.attrelid IN ('public.u7'::regclass, 'public.u7c'::regclass, 'public.u7p'::regclass, 'public.u7p_1'::regclass)
  AND a.attnum > 0 AND NOT a.attisdropped;
CALL public.xid_move_start('public.u7');
CALL public.xid_move_backfill('public.u7');
CALL public.xid_move_abort('public.u7');
});
check('abort leaves the tables as they were', q{
	SELECT NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid IN ('u7'::regclass, 'u7c'::regclass) AND attname LIKE '%xid%' AND NOT attisdropped)
	    AND NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid IN ('u7'::regclass, 'u7c'::regclass) AND NOT tgisinternal)
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)});
# the whole way to the swap, then rows written with xid keys, then abort
to_swap('public.u7');
sql(q{
INSERT INTO public.u7 (id, note) SELECT x, x::text FROM (SELECT public.xid_new() AS x FROM generate_series(1, 20)) g;
INSERT INTO public.u7c (u) SELECT id FROM public.u7 ORDER BY id DESC LIMIT 20;
INSERT INTO public.u7p (u, k) SELECT id, 150 FROM public.u7 ORDER BY id DESC LIMIT 20;
});
($rc, my $err) = try_sql("CALL public.xid_move_abort('public.u7')");
is($rc, 0, 'xid_move_abort after the swap succeeds') or diag($err);
like($err, qr/swapped back to its old key/, 'xid_move_abort after the swap says the table is swapped back');
check('abort after the swap: the uuid key, its foreign keys (valid, on a partitioned table too) and every column as before', q{
	SELECT (SELECT count(*) FROM public.u7) = 520
	    AND (SELECT count(*) FROM public.u7c) = 520 AND (SELECT count(*) FROM public.u7p) = 520
	    AND (SELECT bool_and(public.xid_from_uuidv7(id)::text = note) FROM public.u7)
	    AND NOT EXISTS (SELECT rel, attname, type, attnotnull FROM public.u7_shape
	                    EXCEPT SELECT a.attrelid::regclass::text, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull
	                    FROM pg_attribute a WHERE a.attrelid IN ('public.u7'::regclass, 'public.u7c'::regclass, 'public.u7p'::regclass, 'public.u7p_1'::regclass)
	                      AND a.attnum > 0 AND NOT a.attisdropped)
	    AND (SELECT count(*) FROM pg_attribute a WHERE a.attrelid IN ('public.u7'::regclass, 'public.u7c'::regclass, 'public.u7p'::regclass) AND a.attnum > 0 AND NOT a.attisdropped) = 5
	    AND (SELECT conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = 'public.u7'::regclass AND attname = 'id')]
	         FROM pg_constraint WHERE conrelid = 'public.u7'::regclass AND contype = 'p' AND conname = 'u7_pkey')
	    AND (SELECT count(*) = 4 AND bool_and(convalidated) FROM pg_constraint WHERE confrelid = 'public.u7'::regclass AND contype = 'f')
	    AND (SELECT count(*) FROM pg_constraint WHERE conrelid = 'public.u7p'::regclass AND contype = 'f' AND confdeltype = 'c') = 1
	    AND NOT EXISTS (SELECT FROM pg_trigger WHERE tgrelid IN ('u7'::regclass, 'u7c'::regclass, 'u7p'::regclass, 'u7p_1'::regclass) AND NOT tgisinternal)
	    AND NOT EXISTS (SELECT FROM pg_proc WHERE proname LIKE 'u7%xm%')
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)});
# a second move of the same tables goes through
to_swap('public.u7');
sql("CALL public.xid_move_finish('public.u7', drop_old => true)");
check('a uuidv7 key becomes the id it stands for',
	'SELECT count(*) = 520 AND bool_and(p.id::text = p.note) FROM public.u7 p JOIN public.u7c c ON c.u = p.id');
fails_like("CALL public.xid_move_abort('public.u7')", qr/55000: no move of table \S*u7 is under way/,
	'xid_move_abort after the finish fails with 55000');

# a bigint key without a default: rows written after the swap have no old
# key, and abort says so and changes nothing until they have one
sql(q{
CREATE TABLE public.nd (id bigint PRIMARY KEY, t timestamptz NOT NULL);
INSERT INTO public.nd SELECT g, '2025-01-01+00'::timestamptz + g * interval '1 s' FROM generate_series(1, 100) g;
});
to_swap('public.nd', "time_column => 't'");
sql('INSERT INTO public.nd (t) VALUES (now())');
fails_like("CALL public.xid_move_abort('public.nd')", qr/55000: 1 rows of table \S*nd have no old key/,
	'abort after the swap refuses rows without an old key with 55000');
check('a refused abort after the swap changes nothing', q{
	SELECT (SELECT step FROM public.xid_move_status('public.nd') LIMIT 1) = 'swapped'
	    AND (SELECT atttypid = 'public.xid'::regtype FROM pg_attribute WHERE attrelid = 'public.nd'::regclass AND attname = 'id')});
sql("UPDATE public.nd SET id_old = 101 WHERE id_old IS NULL; CALL public.xid_move_abort('public.nd')");
check('given its old key, the row is kept by the abort', q{
	SELECT count(*) = 101 AND max(id) = 101 AND (SELECT atttypid = 'int8'::regtype FROM pg_attribute WHERE attrelid = 'public.nd'::regclass AND attname = 'id')
	FROM public.nd});
# past the finish's first step, abort refuses
to_swap('public.nd', "time_column => 't'");
sql("SELECT public.xid_move_state('public.nd', 'set_step', ARRAY['finishing'])");
fails_like("CALL public.xid_move_abort('public.nd')", qr/55000: the move of table \S*nd is finishing/,
	'abort refuses a move that is finishing with 55000');
sql("CALL public.xid_move_finish('public.nd')");

# a random (v4) uuid key with a column of each row's time, the old key kept
sql(q{
CREATE TABLE public.u4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), t timestamptz NOT NULL);
-- one row a millisecond: rows of one millisecond would share 42 bits and
-- keep 22 random bits of their uuid, and collide once in about 7,000 runs
INSERT INTO public.u4 (t) SELECT '2025-06-01+00'::timestamptz + g * interval '1 ms' FROM generate_series(1, 600) g;
CREATE TABLE public.u4c (u uuid REFERENCES public.u4);
INSERT INTO public.u4c SELECT id FROM public.u4;
});
to_swap('public.u4', "time_column => 't'");
sql("CALL public.xid_move_finish('public.u4')");
check('a v4 uuid key with a time column: each id from its time and old key, the old key kept', q{
	SELECT count(*) = 600 AND count(DISTINCT p.id) = 600
	        AND bool_and(p.id = public.xid_from_key(p.t, p.id_old))
	        AND (SELECT count(*) FROM public.u4 p2 JOIN public.u4c c ON c.u = p2.id) = 600
	        AND (SELECT atttypid FROM pg_attribute WHERE attrelid = 'public.u4'::regclass AND attname = 'id') = 'public.xid'::regtype
	FROM public.u4 p});

done_testing();
