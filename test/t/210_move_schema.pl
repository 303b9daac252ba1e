# The online move (xid_move) of a realistic schema, run by its owner (not
# a superuser) while 8 pgbench writers, as an application role, write
# every table: users, whose key is moved, with a self-reference
# (manager_id); docs, with two keys to users (created_by, updated_by), a
# view over it and application row triggers (updated_at and an audit row,
# and a statement trigger) and a CHECK that calls the owner's function;
# memberships with a composite unique constraint over the reference; an
# activity table partitioned on two levels with an index on the reference;
# profiles with row level security; tickets whose reference falls back to
# a default (ON DELETE SET DEFAULT).  users is published with its primary
# key's index as replica identity, a reporter may read two of its columns,
# the owner's default privileges grant every function to the application,
# and a rule on docs is refused by the plan until dropped.  The backfill is
# cancelled once and the server stopped with -m immediate once; both
# resume.
#
# Afterwards every row and every reference is compared with a snapshot
# taken before the move (the rows no writer touched are unchanged, each
# reference points at the row it pointed at), the writers' committed work
# is all there, no writer saw an error, the application triggers did not
# fire for the backfill, and the composite unique constraint is on the new
# column.  Then a move stopped after its backfill is dumped by the owner
# (pg_dump), restored into a new database and completed there.
use strict;
use warnings FATAL => 'all';
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);
use FindBin;
use lib "$FindBin::RealBin/../perl";
use XidTest;

my $node = xid_node('move_schema', conf => 'max_connections = 40');
my $bindir = $node->config_data('--bindir');
plan skip_all => "no pgbench in $bindir" unless -x "$bindir/pgbench";

# the owner may keep the backfill from firing application triggers
$node->safe_psql('postgres', q{
CREATE ROLE mover LOGIN;
CREATE ROLE app LOGIN;
CREATE ROLE reporter LOGIN;
CREATE DATABASE movedb OWNER mover;
GRANT SET ON PARAMETER session_replication_role TO mover;
});
# as(ROLE, [DB]): the connection string of ROLE to DB (movedb)
sub as { return $node->connstr($_[1] // 'movedb') . " user=$_[0]"; }
# sql(SQL, [DB]): SQL run by the owner, its output; dies on an error
sub sql { return $node->safe_psql('movedb', $_[0], connstr => as('mover', $_[1])); }
sub check { my ($name, $query, $db) = @_; is(sql($query, $db), 't', $name); }

sql(q{
CREATE EXTENSION xid;
CREATE EXTENSION xid_move;
ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON FUNCTIONS TO app;
CREATE TABLE users (
	id bigserial PRIMARY KEY,
	created_at timestamptz NOT NULL DEFAULT now(),
	manager_id bigint REFERENCES users,
	n bigint NOT NULL);
INSERT INTO users (created_at, n)
SELECT '2026-01-01+00'::timestamptz + (g / 20) * interval '1 ms', g FROM generate_series(1, 6000) g;
UPDATE users SET manager_id = 1 + (id * 31) % 100 WHERE id > 100;
CREATE TABLE docs (
	id bigserial PRIMARY KEY,
	created_by bigint NOT NULL REFERENCES users,
	updated_by bigint REFERENCES users,
	title text NOT NULL,
	updated_at timestamptz NOT NULL DEFAULT '2026-01-01+00',
	n bigint NOT NULL);
CREATE INDEX ON docs (created_by);
INSERT INTO docs (created_by, updated_by, title, n)
SELECT 1 + (g * 7) % 6000, CASE WHEN g % 5 = 0 THEN NULL ELSE 1 + (g * 11) % 6000 END, 'doc ' || g, g
FROM generate_series(1, 8000) g;
CREATE VIEW doc_titles AS SELECT id, title FROM docs;
CREATE TABLE audit (doc bigint, at timestamptz DEFAULT now());
CREATE FUNCTION docs_touch() RETURNS trigger LANGUAGE plpgsql AS
	'BEGIN NEW.updated_at := now(); RETURN NEW; END';
CREATE FUNCTION docs_audit() RETURNS trigger LANGUAGE plpgsql AS
	'BEGIN INSERT INTO public.audit (doc) VALUES (NEW.id); RETURN NULL; END';
CREATE TRIGGER docs_touch BEFORE UPDATE ON docs FOR EACH ROW EXECUTE FUNCTION docs_touch();
CREATE TRIGGER docs_audit AFTER UPDATE ON docs FOR EACH ROW EXECUTE FUNCTION docs_audit();
CREATE TABLE stmt_log (app text);
CREATE FUNCTION docs_stmt() RETURNS trigger LANGUAGE plpgsql AS
	'BEGIN INSERT INTO public.stmt_log VALUES (current_setting(''application_name'')); RETURN NULL; END';
CREATE TRIGGER docs_stmt AFTER UPDATE ON docs FOR EACH STATEMENT EXECUTE FUNCTION docs_stmt();
CREATE FUNCTION positive(bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT $1 > 0';
ALTER TABLE docs ADD CONSTRAINT docs_n_positive CHECK (positive(n));
CREATE TABLE memberships (
	team int NOT NULL,
	user_id bigint NOT NULL REFERENCES users ON DELETE CASCADE,
	n bigint NOT NULL,
	UNIQUE (team, user_id));
INSERT INTO memberships (team, user_id, n) SELECT g % 10, 1 + (g * 13) % 6000, g FROM generate_series(1, 5000) g
ON CONFLICT DO NOTHING;
CREATE TABLE activity (
	at date NOT NULL,
	user_id bigint REFERENCES users ON DELETE CASCADE,
	n bigint NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE activity_1 PARTITION OF activity FOR VALUES FROM ('2026-01-01') TO ('2026-07-01');
CREATE TABLE activity_2 PARTITION OF activity FOR VALUES FROM ('2026-07-01') TO ('2100-01-01') PARTITION BY RANGE (n);
CREATE TABLE activity_2a PARTITION OF activity_2 FOR VALUES FROM (MINVALUE) TO (1000001);
CREATE TABLE activity_2b PARTITION OF activity_2 FOR VALUES FROM (1000001) TO (MAXVALUE);
CREATE INDEX activity_user_id ON activity (user_id);
INSERT INTO activity SELECT '2026-01-01'::date + g % 360, 1 + (g * 17) % 6000, g FROM generate_series(1, 8000) g;
CREATE TABLE profiles (
	user_id bigint NOT NULL REFERENCES users,
	tenant int NOT NULL,
	bio text,
	n bigint NOT NULL);
ALTER TABLE profiles ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_one ON profiles USING (tenant = 1);
INSERT INTO profiles SELECT 1 + g % 6000, 1 + g % 2, 'bio', g FROM generate_series(1, 4000) g;
CREATE TABLE tickets (
	id bigserial PRIMARY KEY,
	assignee bigint NOT NULL DEFAULT 1 REFERENCES users ON DELETE SET DEFAULT,
	n bigint NOT NULL);
INSERT INTO users (created_at, n) VALUES ('2026-01-02+00', 999999);
INSERT INTO tickets (assignee, n) SELECT (SELECT id FROM users WHERE n = 999999), g FROM generate_series(1, 10) g;
ALTER TABLE users REPLICA IDENTITY USING INDEX users_pkey;
SET client_min_messages = error;
CREATE PUBLICATION app_pub FOR TABLE users;
RESET client_min_messages;
GRANT SELECT (id, n) ON users TO reporter;
-- the writers' ledger
CREATE TABLE wlog (n bigint PRIMARY KEY);
GRANT SELECT, INSERT, UPDATE, DELETE ON users, docs, memberships, activity, profiles, wlog, audit TO app;
GRANT INSERT ON stmt_log TO app;
GRANT USAGE ON SEQUENCE users_id_seq, docs_id_seq TO app;
-- app sees every profile
CREATE POLICY app_all ON profiles TO app USING (true);
ANALYZE users, docs, memberships, activity, profiles;
-- what no writer touches (n <= 10000), as it is now, with each reference
-- written as the n of the user it points at
CREATE TABLE before AS
SELECT (SELECT md5(string_agg(format('%s|%s|%s', u.n, u.created_at, m.n), ',' ORDER BY u.n))
        FROM users u LEFT JOIN users m ON m.id = u.manager_id WHERE u.n <= 10000) AS users,
       (SELECT md5(string_agg(format('%s|%s|%s|%s|%s', d.n, c.n, w.n, d.title, d.updated_at), ',' ORDER BY d.n))
        FROM docs d JOIN users c ON c.id = d.created_by LEFT JOIN users w ON w.id = d.updated_by WHERE d.n <= 10000) AS docs,
       (SELECT md5(string_agg(format('%s|%s|%s', x.n, x.team, u.n), ',' ORDER BY x.n))
        FROM memberships x JOIN users u ON u.id = x.user_id WHERE x.n <= 10000) AS memberships,
       (SELECT md5(string_agg(format('%s|%s|%s', x.n, x.at, u.n), ',' ORDER BY x.n))
        FROM activity x LEFT JOIN users u ON u.id = x.user_id WHERE x.n <= 10000) AS activity,
       (SELECT md5(string_agg(format('%s|%s|%s', x.n, x.tenant, u.n), ',' ORDER BY x.n))
        FROM profiles x JOIN users u ON u.id = x.user_id WHERE x.n <= 10000) AS profiles,
       (SELECT count(*) FROM profiles) AS nprofiles;
});

# a rule on a table of the move is refused by name, before any change
sql('CREATE RULE docs_keep AS ON DELETE TO docs DO INSTEAD NOTHING');
my (undef, undef, $err) = $node->psql('movedb', "CALL xid_move_start('users', time_column => 'created_at')",
	connstr => as('mover'), extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like($err, qr/0A000: table public\.users cannot be moved to xid: rule docs_keep on public\.docs/,
	'a rule on a referencing table is refused by name (0A000)');
check('a refused rule changes nothing',
	q{SELECT NOT EXISTS (SELECT FROM public.xid_move_moves) AND NOT EXISTS (SELECT FROM pg_attribute WHERE attname = 'id_xid')});
sql('DROP RULE docs_keep ON docs');

# the plan: everything changed, moved, carried over, kept; nothing refused
my $plan = $node->safe_psql('movedb', q{SELECT action, object_type, object FROM xid_move_plan('users', 'created_at')},
	connstr => as('mover'), extra_params => [ '-F', ' | ' ]);
like($plan, qr/^\Q$_\E/m, "the plan: $_")
  for 'move | constraint | constraint memberships_team_user_id_key', 'keep | view | public.doc_titles',
  'suppress | trigger | docs_touch on public.docs', 'suppress | trigger | docs_stmt on public.docs',
  'keep | constraint | docs_n_positive on public.docs', 'keep | foreign key | users_manager_id_fkey',
  'move | replica identity | public.users', 'carry | privileges | public.users.id',
  'carry | default | public.tickets.assignee', 'move | index | public.activity_user_id';
unlike($plan, qr/^refuse/m, 'the plan refuses nothing');

# The writers, as app: a user managed by another, a doc by two users, a
# membership, an activity and a profile of the new user; an update of a doc
# (its triggers fire); a delete of an activity.  All of rows they made
# (n > 1000000), and a ledger row in the same transaction.
my $script = PostgreSQL::Test::Utils::tempdir() . '/writer.sql';
append_to_file($script, q{\set r random(1000001, 2000000000)
\set m random(1, 6000)
BEGIN;
INSERT INTO users (manager_id, n) SELECT id, :r FROM users WHERE n = :m;
INSERT INTO docs (created_by, updated_by, title, n) SELECT u.id, m.id, 'w', :r FROM users u, users m WHERE u.n = :r AND m.n = :m;
INSERT INTO memberships (team, user_id, n) SELECT 100, id, :r FROM users WHERE n = :r;
INSERT INTO activity (at, user_id, n) SELECT '2026-11-25', id, :r FROM users WHERE n = :r;
INSERT INTO profiles (user_id, tenant, n) SELECT id, 2, :r FROM users WHERE n = :r;
UPDATE docs SET title = 'w2' WHERE n = (SELECT max(n) FROM wlog WHERE n < :r);
DELETE FROM activity WHERE n = (SELECT min(n) FROM wlog WHERE n > :r);
INSERT INTO wlog VALUES (:r);
COMMIT;
});
sub writers_from { return writers($node, PostgreSQL::Test::Utils::tempdir(), '-U', 'app', '-n', '-c', '8', '-j', '4', '-f', $script, 'movedb'); }
sub writers_until
{
	my ($w, $when) = @_;
	my ($runs, @failed) = stop_writers($w);
	is(scalar @failed, 0, "no writer failed $when ($runs runs)") or diag($failed[0]);
}
# bg(SQL, CONNSTR): SQL in the background, its harness; its output goes to OUT
sub bg { return IPC::Run::start([ 'psql', '-X', '-q', '-d', $_[1], '-c', $_[0] ], '>&', $_[2] // \my $o); }
my $backfill = "CALL xid_move_backfill('users', batch_blocks => 2, batch_time => '0', pause => '20ms')";

my $w = writers_from();
sql("CALL xid_move_start('users', time_column => 'created_at')");
# a cancel in the middle of the backfill
my $h = bg($backfill, as('mover') . ' application_name=xm_backfill', \my $cancelled);
$node->poll_query_until('movedb', "SELECT sum(blocks_done) >= 10 FROM xid_move_status('users')");
$node->safe_psql('postgres', "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE application_name = 'xm_backfill'");
$h->finish;
like($cancelled, qr/canceling statement due to user request/, 'the backfill is cancelled');
check('after a cancel in the backfill, its progress is kept',
	"SELECT sum(blocks_done) >= 10 AND sum(blocks_done) < sum(blocks) FROM xid_move_status('users')");
writers_until($w, 'before the restart');
# then an immediate stop in the middle of it
$h = bg($backfill, as('mover'));
sleep 1;
$node->stop('immediate');
$h->finish;
$node->start;
$w = writers_from();
sql("CALL xid_move_backfill('users')");
sql("SELECT * FROM xid_move_index_commands('users') \\gexec");
sql("CALL xid_move_validate('users')");
sql("CALL xid_move_swap('users')");
sleep 1;
sql("CALL xid_move_finish('users')");
sleep 1;
my $wdir = $w->{dir};
writers_until($w, 'after the restart');
my $tx = 0;
$tx += $_ for map { slurp_file($_) =~ /^number of transactions actually processed: (\d+)/m } glob "$wdir/pgbench_*.out";
note("writers after the restart: $tx transactions");

check('every key and reference is an xid, every foreign key valid', q{
	SELECT (SELECT count(*) FROM pg_attribute WHERE attname IN ('id', 'manager_id', 'created_by', 'updated_by', 'user_id', 'assignee')
	           AND attrelid IN ('users'::regclass, 'docs'::regclass, 'memberships'::regclass, 'activity'::regclass, 'profiles'::regclass, 'tickets'::regclass)
	           AND atttypid = 'public.xid'::regtype) = 8
	    AND (SELECT count(*) = 7 AND bool_and(convalidated) FROM pg_constraint WHERE contype = 'f' AND confrelid = 'users'::regclass AND conparentid = 0)
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)});
check('the rows no writer touched are unchanged, each reference to the row it referenced', q{
	SELECT b.users = (SELECT md5(string_agg(format('%s|%s|%s', u.n, u.created_at, m.n), ',' ORDER BY u.n))
	                   FROM users u LEFT JOIN users m ON m.id = u.manager_id WHERE u.n <= 10000)
	    AND b.docs = (SELECT md5(string_agg(format('%s|%s|%s|%s|%s', d.n, c.n, w.n, d.title, d.updated_at), ',' ORDER BY d.n))
	                  FROM docs d JOIN users c ON c.id = d.created_by LEFT JOIN users w ON w.id = d.updated_by WHERE d.n <= 10000)
	    AND b.memberships = (SELECT md5(string_agg(format('%s|%s|%s', x.n, x.team, u.n), ',' ORDER BY x.n))
	                         FROM memberships x JOIN users u ON u.id = x.user_id WHERE x.n <= 10000)
	    AND b.activity = (SELECT md5(string_agg(format('%s|%s|%s', x.n, x.at, u.n), ',' ORDER BY x.n))
	                      FROM activity x LEFT JOIN users u ON u.id = x.user_id WHERE x.n <= 10000)
	    AND b.profiles = (SELECT md5(string_agg(format('%s|%s|%s', x.n, x.tenant, u.n), ',' ORDER BY x.n))
	                      FROM profiles x JOIN users u ON u.id = x.user_id WHERE x.n <= 10000)
	FROM before b});
check(q{the writers' committed work is all there, every reference of it set}, q{
	SELECT (SELECT count(*) FROM wlog) > 50
	    AND (SELECT count(*) FROM users WHERE n > 1000000) = (SELECT count(*) FROM wlog)
	    AND (SELECT count(*) FROM users WHERE n > 1000000 AND manager_id IS NULL) = 0
	    AND (SELECT count(*) FROM docs WHERE n > 1000000 AND updated_by IS NULL) = 0
	    AND (SELECT count(*) FROM memberships WHERE n > 1000000) = (SELECT count(*) FROM wlog)
	    AND (SELECT count(*) FROM profiles WHERE n > 1000000) = (SELECT count(*) FROM wlog)
	    AND (SELECT count(*) FROM profiles) = (SELECT nprofiles FROM before) + (SELECT count(*) FROM wlog)});
check('the old columns still say what each row was', q{
	SELECT NOT EXISTS (SELECT FROM docs d JOIN users u ON u.id = d.created_by WHERE d.created_by_old <> u.id_old)
	    AND NOT EXISTS (SELECT FROM activity x JOIN users u ON u.id = x.user_id WHERE x.user_id_old <> u.id_old)
	    AND NOT EXISTS (SELECT FROM users x JOIN users u ON u.id = x.manager_id WHERE x.manager_id_old <> u.id_old)});
check('the backfill fired no application trigger (only the writers\' updates did)', q{
	SELECT NOT EXISTS (SELECT FROM audit a JOIN docs d ON d.id = a.doc WHERE d.title <> 'w2')
	    AND (SELECT count(DISTINCT doc) FROM audit) = (SELECT count(*) FROM docs WHERE title = 'w2')
	    AND NOT EXISTS (SELECT FROM docs WHERE title <> 'w2' AND updated_at <> '2026-01-01+00')});
check('the composite unique constraint is on the new column, and holds', q{
	SELECT (SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'memberships_team_user_id_key') = 'UNIQUE (team, user_id)'
	    AND (SELECT count(*) = count(DISTINCT (team, user_id)) FROM memberships)});
check('the view is unchanged', 'SELECT count(*) = (SELECT count(*) FROM docs) FROM doc_titles');
check('the statement trigger fired for the writers only, and the CHECK holds', q{
	SELECT NOT EXISTS (SELECT FROM stmt_log WHERE app IS DISTINCT FROM 'pgbench') AND EXISTS (SELECT FROM stmt_log)
	    AND (SELECT convalidated FROM pg_constraint WHERE conname = 'docs_n_positive')});
check('the index on the reference is valid on every partition level, and the new functions are none', q{
	SELECT (SELECT count(*) FROM pg_partition_tree('activity') t
	         WHERE EXISTS (SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
	                       WHERE i.indrelid = t.relid AND a.attname = 'user_id' AND i.indisvalid)) = 5
	    AND NOT EXISTS (SELECT FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND proname LIKE '%\_xm\_%')});
check('the published table keeps its replica identity on the new key\'s index', q{
	SELECT (SELECT ic.relname FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid
	        WHERE i.indrelid = 'users'::regclass AND i.indisreplident) = 'users_pkey'});
is(($node->psql('movedb', 'UPDATE users SET n = n WHERE n = 1', connstr => as('mover')))[0], 0,
	'the published table takes updates');
is(($node->psql('movedb', 'SELECT count(id), max(n) FROM users', connstr => as('reporter')))[0], 0,
	'the reporter reads the columns granted to it');
sql('DELETE FROM users WHERE n = 999999');
check('a deleted user\'s tickets fall back to the default, now the id of user 1',
	'SELECT count(*) = 10 FROM tickets t JOIN users u ON u.id = t.assignee WHERE u.n = 1');

# A move stopped after its backfill, dumped by its owner and restored into
# a new database, completes there: its state and its triggers come along,
# and xid_move_relink() records the triggers' new OIDs.
sql(q{
CREATE TABLE shop (id bigserial PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(), n int);
CREATE TABLE shop_lines (id bigserial PRIMARY KEY, shop_id bigint NOT NULL REFERENCES shop, n int);
INSERT INTO shop (created_at, n) SELECT '2026-02-01+00'::timestamptz + g * interval '1 s', g FROM generate_series(1, 500) g;
INSERT INTO shop_lines (shop_id, n) SELECT 1 + g % 500, g FROM generate_series(1, 1000) g;
CALL xid_move_start('shop', time_column => 'created_at');
CALL xid_move_backfill('shop');
});
my $dump = PostgreSQL::Test::Utils::tempdir() . '/movedb.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', as('mover') ], 'pg_dump by the owner of a move under way');
$node->safe_psql('postgres', 'CREATE DATABASE restored OWNER mover');
$node->command_ok([ 'pg_restore', '-d', as('mover', 'restored'), '--no-owner', $dump ], 'pg_restore by the owner');
sql(q{
-- the triggers' records are by OID, which the restore changed
SELECT xid_move_relink('shop');
INSERT INTO shop (n) VALUES (501);
INSERT INTO shop_lines (shop_id, n) SELECT id, 1001 FROM shop WHERE n = 501;
SELECT * FROM xid_move_index_commands('shop') \gexec
CALL xid_move_validate('shop');
CALL xid_move_swap('shop');
CALL xid_move_finish('shop', drop_old => true);
}, 'restored');
check('a move dumped and restored by its owner after its backfill completes in the new database', q{
	SELECT (SELECT count(*) FROM shop_lines l JOIN shop s ON s.id = l.shop_id) = 1001
	    AND (SELECT atttypid = 'public.xid'::regtype FROM pg_attribute WHERE attrelid = 'shop_lines'::regclass AND attname = 'shop_id')
	    AND NOT EXISTS (SELECT FROM public.xid_move_moves)}, 'restored');

done_testing();
