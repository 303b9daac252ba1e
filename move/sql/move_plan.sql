--
-- move_plan: what xid_move_plan() decides for each kind of object, and
-- xid_move_start() refusing up front (and changing nothing) with the plan's
-- reason; dry_run prints the plan and changes nothing.
--
-- An error caught: its SQLSTATE, message and hint
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text; m text; h text;
BEGIN
	EXECUTE stmt;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT, h = PG_EXCEPTION_HINT;
	RETURN s || ': ' || m || CASE WHEN coalesce(h, '') = '' THEN '' ELSE ' HINT: ' || h END;
END
$$;
CREATE ROLE regress_xm_owner;
CREATE SCHEMA mp AUTHORIZATION regress_xm_owner;
SET ROLE regress_xm_owner;
SET search_path = mp, public;

CREATE TABLE users (
	id bigint PRIMARY KEY,
	tenant integer NOT NULL,
	created_at timestamptz NOT NULL,
	name text,
	manager_id bigint REFERENCES users,		-- references itself
	UNIQUE (tenant, id)						-- composite unique: moves
);
CREATE TABLE posts (
	id bigint PRIMARY KEY,
	created_by bigint NOT NULL REFERENCES users,	-- two foreign keys
	updated_by bigint REFERENCES users,				-- from one table
	updated_at timestamptz
);
CREATE INDEX posts_created_by ON posts (created_by);	-- plain index: moves
CREATE TABLE events (
	at timestamptz NOT NULL,
	user_id bigint REFERENCES users
) PARTITION BY RANGE (at);
CREATE TABLE events_2023 PARTITION OF events FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE VIEW user_names AS SELECT name FROM users;		-- does not use the key: kept
INSERT INTO users SELECT g, g % 3, timestamptz '2024-01-01' + g * interval '1 second', 'u' || g,
	CASE WHEN g > 1 THEN 1 END FROM generate_series(1, 100) g;
INSERT INTO posts SELECT g, g % 100 + 1, g % 50 + 1 FROM generate_series(1, 200) g;
INSERT INTO events SELECT timestamptz '2023-06-01' + g * interval '1 day', g % 100 + 1 FROM generate_series(1, 300) g;

-- the whole plan: nothing refused
SELECT object_type, object, action, sqlstate, detail FROM xid_move_plan('users', 'created_at');
SELECT count(*) AS refusals FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';

-- a bigint key needs a time column
SELECT action, sqlstate, hint FROM xid_move_plan('users');

-- a view that uses the key: refused, with the way out
CREATE VIEW user_ids AS SELECT id, name FROM users;
SELECT object_type, object, action, sqlstate, hint FROM xid_move_plan('users', 'created_at') WHERE action IN ('refuse', 'keep') AND object_type = 'view';
-- start refuses it up front, with the plan's SQLSTATE and hint, and changes nothing
SELECT pg_temp.try($$CALL xid_move_start('users', 'created_at')$$);
SELECT count(*) AS moves FROM xid_move_moves;
SELECT count(*) AS parts FROM xid_move_parts;
SELECT count(*) AS new_columns FROM pg_attribute WHERE attrelid IN ('users'::regclass, 'posts'::regclass, 'events'::regclass) AND attname LIKE '%\_xid' AND NOT attisdropped;
SELECT count(*) AS triggers FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'mp'::regnamespace AND t.tgname LIKE 'xid\_move%';
DROP VIEW user_ids;

-- an application row trigger on UPDATE: refused, fired with fire_triggers
-- (the owner may not set session_replication_role, so it cannot be suppressed)
CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN NEW.updated_at := now(); RETURN NEW; END$$;
CREATE TRIGGER posts_touch BEFORE UPDATE ON posts FOR EACH ROW EXECUTE FUNCTION touch();
SELECT object_type, object, action, sqlstate, hint FROM xid_move_plan('users', 'created_at') WHERE object_type = 'trigger';
SELECT object_type, object, action, sqlstate, hint FROM xid_move_plan('users', 'created_at', fire_triggers => true) WHERE object_type = 'trigger';
SELECT count(*) AS refusals FROM xid_move_plan('users', 'created_at', fire_triggers => true) WHERE action = 'refuse';
SELECT pg_temp.try($$CALL xid_move_start('users', 'created_at')$$);
SELECT count(*) AS moves FROM xid_move_moves;
-- a trigger disabled is not fired, so not refused
ALTER TABLE posts DISABLE TRIGGER posts_touch;
SELECT count(*) AS refusals FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
DROP TRIGGER posts_touch ON posts;

-- FORCE ROW LEVEL SECURITY on a referencing table: refused (55000)
ALTER TABLE posts ENABLE ROW LEVEL SECURITY;
ALTER TABLE posts FORCE ROW LEVEL SECURITY;
SELECT object_type, object, action, sqlstate, hint FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
SELECT pg_temp.try($$CALL xid_move_start('users', 'created_at')$$);
-- on a partition of a partitioned child, too
ALTER TABLE posts NO FORCE ROW LEVEL SECURITY;
ALTER TABLE posts DISABLE ROW LEVEL SECURITY;
ALTER TABLE events_2024 FORCE ROW LEVEL SECURITY;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
ALTER TABLE events_2024 NO FORCE ROW LEVEL SECURITY;
-- FORCE on the table itself
ALTER TABLE users FORCE ROW LEVEL SECURITY;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
ALTER TABLE users NO FORCE ROW LEVEL SECURITY;

-- a foreign key whose column is also its table's primary key: refused up
-- front (0A000), not at the swap
CREATE TABLE user_settings (user_id bigint PRIMARY KEY REFERENCES users, theme text);
INSERT INTO user_settings SELECT g, 'dark' FROM generate_series(1, 10) g;
SELECT object_type, object, action, sqlstate, detail FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
SELECT pg_temp.try($$CALL xid_move_start('users', 'created_at')$$);
SELECT count(*) AS moves FROM xid_move_moves;
DROP TABLE user_settings;

-- a foreign key NOT VALID: refused, with the way out
CREATE TABLE invites (id bigint PRIMARY KEY, user_id bigint);
ALTER TABLE invites ADD FOREIGN KEY (user_id) REFERENCES users NOT VALID;
SELECT object_type, object, action, sqlstate, hint FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
SELECT pg_temp.try($$CALL xid_move_start('users', 'created_at')$$);
ALTER TABLE invites VALIDATE CONSTRAINT invites_user_id_fkey;
SELECT count(*) AS refusals FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
DROP TABLE invites;

-- a column in two foreign keys
CREATE TABLE audit_users (id bigint PRIMARY KEY);
INSERT INTO audit_users SELECT g FROM generate_series(1, 100) g;
ALTER TABLE posts ADD CONSTRAINT posts_created_by_audit FOREIGN KEY (created_by) REFERENCES audit_users;
SELECT object_type, object, action, sqlstate FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
ALTER TABLE posts DROP CONSTRAINT posts_created_by_audit;
DROP TABLE audit_users;

-- an index whose expression uses the key is refused; a unique constraint of
-- one column over a reference, too
CREATE INDEX posts_expr ON posts ((created_by + 1));
SELECT object_type, object, action, sqlstate FROM xid_move_plan('users', 'created_at') WHERE action = 'refuse';
DROP INDEX posts_expr;

-- existing rows that would share an id: refused (23505)
CREATE TABLE dup (id bigint PRIMARY KEY, created_at timestamptz NOT NULL);
INSERT INTO dup VALUES (1, '2024-01-01'), (1 + 4194304, '2024-01-01');
SELECT object_type, action, sqlstate, detail FROM xid_move_plan('dup', 'created_at') WHERE object_type = 'ids';
DROP TABLE dup;

-- a key of a domain type: refused up front (0A000), the way through the
-- domain's base type in the hint; a referencing column of a domain type
-- moves, and the plan says that the domain is not carried over
CREATE DOMAIN order_no AS bigint CHECK (VALUE > 0);
CREATE TABLE dom_orders (id order_no PRIMARY KEY, created_at timestamptz NOT NULL);
SELECT action, sqlstate, detail, hint FROM xid_move_plan('dom_orders', 'created_at');
SELECT pg_temp.try($$CALL xid_move_start('dom_orders', 'created_at')$$);
CREATE TABLE dom_plain (id bigint PRIMARY KEY, created_at timestamptz NOT NULL);
CREATE TABLE dom_lines (id bigint PRIMARY KEY, order_id order_no REFERENCES dom_plain);
SELECT object, action, detail FROM xid_move_plan('dom_plain', 'created_at') WHERE object LIKE '%dom_lines%';
DROP TABLE dom_orders, dom_lines, dom_plain;
DROP DOMAIN order_no;

-- not a table the caller owns
RESET ROLE;
CREATE TABLE public.regress_xm_other (id bigint PRIMARY KEY, created_at timestamptz);
SET ROLE regress_xm_owner;
SELECT object, action, sqlstate FROM xid_move_plan('public.regress_xm_other', 'created_at');
SELECT pg_temp.try($$CALL xid_move_start('public.regress_xm_other', 'created_at')$$);
RESET ROLE;
DROP TABLE public.regress_xm_other;
SET ROLE regress_xm_owner;

-- dry_run: the plan as NOTICEs, nothing changed
CREATE VIEW user_ids AS SELECT id, name FROM users;
CALL xid_move_start('users', 'created_at', dry_run => true);
SELECT count(*) AS moves FROM xid_move_moves;
SELECT count(*) AS parts FROM xid_move_parts;
SELECT count(*) AS new_columns FROM pg_attribute WHERE attrelid IN ('users'::regclass, 'posts'::regclass, 'events'::regclass, 'events_2023'::regclass) AND attname LIKE '%\_xid' AND NOT attisdropped;
SELECT count(*) AS triggers FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'mp'::regnamespace AND t.tgname LIKE 'xid\_move%';
SELECT count(*) AS functions FROM pg_proc WHERE pronamespace = 'mp'::regnamespace AND proname LIKE '%\_xm\_%';
DROP VIEW user_ids;

-- without a refusal, the start goes on: two foreign keys from one table
-- each get their own triggers (no name clash)
CALL xid_move_start('users', 'created_at');
SELECT t.tgrelid::regclass AS relation, count(*) AS triggers, count(DISTINCT t.tgfoid) AS functions
FROM pg_trigger t WHERE t.tgname LIKE 'xid\_move%'
  AND t.tgrelid IN (SELECT p.leaf FROM xid_move_parts p UNION SELECT p.relation FROM xid_move_parts p)
GROUP BY t.tgrelid ORDER BY t.tgrelid::regclass::text;
-- the key's new column takes its ids from a default, as after the swap
-- (no trigger on the writers' inserts); the update trigger remains
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) AS default
FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
WHERE d.adrelid = 'users'::regclass AND a.attname LIKE '%xid%';
SELECT tgname FROM pg_trigger WHERE tgrelid = 'users'::regclass AND tgname LIKE 'xid\_move\_sync%';
-- and a second start (or a plan) says it is under way
SELECT action, sqlstate, hint FROM xid_move_plan('users', 'created_at');
SELECT pg_temp.try($$CALL xid_move_start('users', 'created_at')$$);
CALL xid_move_abort('users');
SELECT count(*) AS moves FROM xid_move_moves;

RESET ROLE;
SET client_min_messages = warning;
DROP SCHEMA mp CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xm_owner;
DROP ROLE regress_xm_owner;
