--
-- move_references: the move never loses a reference.  A deferred foreign
-- key's line inserted before its order gets its reference at commit; a
-- reference to no row stops the commit; rows updated on another column, or
-- moved by VACUUM FULL between batches, get their values; application
-- triggers do not fire in the backfill; rows inserted during the move get
-- ids that do not collide; a parent row replaced with the same key keeps
-- the id its referencing rows hold.
--
CREATE FUNCTION pg_temp.try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE s text; m text;
BEGIN
	EXECUTE stmt;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS s = RETURNED_SQLSTATE, m = MESSAGE_TEXT;
	RETURN s || ': ' || m;
END
$$;
CREATE ROLE regress_xm_owner;
CREATE SCHEMA mr AUTHORIZATION regress_xm_owner;
SET ROLE regress_xm_owner;
SET search_path = mr, public;
\set VERBOSITY terse
SET client_min_messages = warning;

CREATE SEQUENCE orders_seq START 100000;
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT nextval('orders_seq'), created_at timestamptz NOT NULL DEFAULT now(), note text);
CREATE TABLE lines (
	id bigint PRIMARY KEY,
	order_id bigint NOT NULL REFERENCES orders DEFERRABLE INITIALLY DEFERRED,
	qty integer NOT NULL DEFAULT 1
);
INSERT INTO orders SELECT g, timestamptz '2024-01-01' + g * interval '1 second', 'o' || g FROM generate_series(1, 5000) g;
INSERT INTO lines SELECT g, (g - 1) % 5000 + 1 FROM generate_series(1, 10000) g;
CALL xid_move_start('orders', time_column => 'created_at');

-- (a) a line inserted before its order, in one transaction: at the insert
-- the trigger cannot see the order; at commit the line gets its reference
BEGIN;
INSERT INTO lines (id, order_id) VALUES (20001, 6001), (20002, 6001);
INSERT INTO orders (id, note) VALUES (6001, 'late');
SELECT count(*) AS refs_not_yet_set FROM lines WHERE id > 20000 AND order_id_xid IS NULL;
COMMIT;
SELECT count(*) AS lines, count(l.order_id_xid) AS with_ref, count(*) FILTER (WHERE l.order_id_xid = o.id_xid) AS right_ref
FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.id > 20000;

-- (b) a line whose order never comes: the commit fails (23503, the foreign
-- key's or the move's), nothing is left without its reference
\set VERBOSITY sqlstate
BEGIN;
INSERT INTO lines (id, order_id) VALUES (20003, 6002);
COMMIT;
\set VERBOSITY terse
SELECT count(*) AS line_kept FROM lines WHERE id = 20003;
-- its order deleted in the same transaction as the line is inserted
BEGIN;
INSERT INTO orders (id, note) VALUES (6003, 'gone');
INSERT INTO lines (id, order_id) VALUES (20004, 6003);
DELETE FROM orders WHERE id = 6003;
\set VERBOSITY sqlstate
COMMIT;
\set VERBOSITY terse
SELECT count(*) AS line_kept FROM lines WHERE id = 20004;

-- (c) rows updated on another column before the backfill reaches them get
-- their new values from the triggers
UPDATE lines SET qty = qty + 1 WHERE id BETWEEN 9001 AND 9100;
UPDATE orders SET note = note || '!' WHERE id BETWEEN 4001 AND 4100;
SELECT count(*) AS lines_updated, count(l.order_id_xid) AS with_ref,
       count(*) FILTER (WHERE l.order_id_xid = xid_from_key(o.created_at, o.id)) AS right_ref
FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.id BETWEEN 9001 AND 9100;
SELECT count(*) AS orders_updated, count(*) FILTER (WHERE id_xid = xid_from_key(created_at, id)) AS right_id
FROM orders WHERE id BETWEEN 4001 AND 4100;
-- a line moved to another order gets the other order's id
UPDATE lines SET order_id = 7 WHERE id = 9101;
SELECT l.order_id_xid = xid_from_key(o.created_at, o.id) AS moved_ref_ok FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.id = 9101;

-- (d) VACUUM FULL of the table between batches moves rows not yet filled
-- into blocks already done: the sweep fills them, validate passes
DELETE FROM lines WHERE order_id % 2 = 0;
DELETE FROM orders WHERE id % 2 = 0;
CALL xid_move_backfill('orders', batch_blocks => 4, max_batches => 1, batch_time => NULL);
SELECT role, blocks_done, blocks_done < blocks AS more_to_do FROM xid_move_status('orders') ORDER BY role DESC;
VACUUM FULL orders;
SELECT count(*) FILTER (WHERE id_xid IS NULL) > 0 AS some_without_id,
       count(*) FILTER (WHERE id_xid IS NULL AND ctid < format('(%s,0)', (SELECT blocks_done FROM xid_move_parts WHERE role = 'parent' AND tbl = 'orders'::regclass))::tid) > 0
         AS some_in_blocks_done
FROM orders;
CALL xid_move_backfill('orders', batch_blocks => 4, max_batches => 1, batch_time => NULL);
VACUUM FULL orders, lines;
CALL xid_move_backfill('orders', batch_blocks => 4);
SELECT role, relation, step, pass > 0 AS swept FROM xid_move_status('orders');
SELECT count(*) FILTER (WHERE id_xid IS NULL) AS without_id FROM orders;
SELECT count(*) FILTER (WHERE order_id_xid IS NULL) AS without_ref FROM lines;
SELECT * FROM xid_move_index_commands('orders') \gexec
CALL xid_move_validate('orders');
SELECT role, relation, step, verified_rows, verified_refs, mismatches FROM xid_move_status('orders');

-- (a) again after the swap: a line inserted before its order (the new key
-- known in advance) gets its old reference at commit
CALL xid_move_swap('orders');
SELECT xid_new() AS next_id \gset
BEGIN;
INSERT INTO lines (id, order_id) VALUES (20005, :'next_id');
INSERT INTO orders (id, note) VALUES (:'next_id', 'late after swap');
COMMIT;
SELECT l.order_id_old IS NOT NULL AS has_old_ref, l.order_id_old = o.id_old AS right_old_ref
FROM lines l JOIN orders o ON o.id = l.order_id WHERE l.id = 20005;
\set VERBOSITY sqlstate
BEGIN;
INSERT INTO lines (id, order_id) VALUES (20006, xid_new());
COMMIT;
\set VERBOSITY terse
CALL xid_move_finish('orders');
SELECT count(*) AS lines, count(o.id) AS with_order, count(*) FILTER (WHERE o.id_old = l.order_id_old) AS same_order
FROM lines l LEFT JOIN orders o ON o.id = l.order_id;

------------------------------------------------------------------------------
-- (e) application triggers: not fired by the backfill where the owner may
-- set session_replication_role
------------------------------------------------------------------------------
CREATE TABLE accounts (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, name text, updated_at timestamptz);
CREATE TABLE members (id bigint PRIMARY KEY, account_id bigint NOT NULL REFERENCES accounts, updated_at timestamptz);
CREATE TABLE audit (tbl text, id bigint);
CREATE FUNCTION mr.touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.updated_at := now();
	INSERT INTO mr.audit VALUES (TG_TABLE_NAME, NEW.id);
	RETURN NEW;
END
$$;
CREATE TRIGGER accounts_touch BEFORE UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION touch();
CREATE TRIGGER members_touch BEFORE UPDATE ON members FOR EACH ROW EXECUTE FUNCTION touch();
INSERT INTO accounts SELECT g, timestamptz '2024-01-01' + g * interval '1 second', 'a' || g, '2000-01-01' FROM generate_series(1, 1000) g;
INSERT INTO members SELECT g, (g - 1) % 1000 + 1, '2000-01-01' FROM generate_series(1, 2000) g;
-- the triggers work
UPDATE accounts SET name = name WHERE id = 1;
SELECT count(*) AS audited FROM audit;
DELETE FROM audit;
CREATE TEMP TABLE touched_before AS
	SELECT 'accounts' AS tbl, id, updated_at FROM accounts UNION ALL SELECT 'members', id, updated_at FROM members;
SELECT object, action FROM xid_move_plan('accounts', 'created_at') WHERE object_type = 'trigger';
------------------------------------------------------------------------------
-- (g) a parent row replaced with the same key in one transaction: by
-- WITH d AS (DELETE ... RETURNING ...) INSERT ..., which a NO ACTION
-- foreign key accepts at the statement's end, and by a DELETE and an
-- INSERT under a deferred one, before the backfill gave the row an id and
-- between validate and swap.  The new row gets the id of the row it
-- replaces, the one its referencing rows hold (on 1.2 it got a new one:
-- validate failed, or after the swap the lines referenced no order)
------------------------------------------------------------------------------
CREATE TABLE parents (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, note text);
CREATE TABLE kids (id bigint PRIMARY KEY, parent_id bigint NOT NULL REFERENCES parents);
CREATE TABLE dkids (id bigint PRIMARY KEY, parent_id bigint NOT NULL REFERENCES parents DEFERRABLE INITIALLY DEFERRED);
INSERT INTO parents SELECT g, timestamptz '2024-01-01' + g * interval '1 minute', 'p' || g FROM generate_series(1, 100) g;
INSERT INTO kids SELECT g, (g - 1) % 100 + 1 FROM generate_series(1, 200) g;
INSERT INTO dkids SELECT g, (g - 1) % 100 + 1 FROM generate_series(1, 200) g;
CALL xid_move_start('parents', time_column => 'created_at');
-- before the backfill: the row has no id yet; its lines were given the id
-- of its time and key, and the new row (a new time) keeps that one
INSERT INTO kids VALUES (1001, 1);
WITH d AS (DELETE FROM parents WHERE id = 1 RETURNING *)
INSERT INTO parents SELECT id, timestamptz '2025-06-01', 'replaced' FROM d;
BEGIN;
DELETE FROM dkids WHERE parent_id = 4 AND id > 100;
DELETE FROM kids WHERE parent_id = 4;
DELETE FROM parents WHERE id = 4;
INSERT INTO parents VALUES (4, timestamptz '2025-06-02', 'replaced');
INSERT INTO kids VALUES (1004, 4);
COMMIT;
SELECT p.id, p.note, p.id_xid = xid_from_key(timestamptz '2024-01-01' + p.id * interval '1 minute', p.id) AS id_of_the_old_row,
       (SELECT count(*) FROM kids k WHERE k.parent_id = p.id AND k.parent_id_xid IS DISTINCT FROM p.id_xid) AS kids_elsewhere,
       (SELECT count(*) FROM dkids k WHERE k.parent_id = p.id AND k.parent_id_xid IS DISTINCT FROM p.id_xid) AS dkids_elsewhere
FROM parents p WHERE p.id IN (1, 4) ORDER BY p.id;
CALL xid_move_backfill('parents');
SELECT * FROM xid_move_index_commands('parents') \gexec
CALL xid_move_validate('parents');
SELECT role, relation, step, mismatches FROM xid_move_status('parents');
-- between validate and swap, where 1.2's swap did not look again
CREATE TEMP TABLE ids_before AS SELECT id, id_xid FROM parents WHERE id IN (2, 3);
WITH d AS (DELETE FROM parents WHERE id = 2 RETURNING *)
INSERT INTO parents SELECT id, now(), 'replaced' FROM d;
BEGIN;
DELETE FROM kids WHERE parent_id = 3;
DELETE FROM parents WHERE id = 3;
INSERT INTO parents VALUES (3, now(), 'replaced');
INSERT INTO kids VALUES (1003, 3);
COMMIT;
-- a key deleted in a transaction that rolled back, then a new key: an id
-- of its own
BEGIN;
DELETE FROM dkids WHERE parent_id = 5;
DELETE FROM kids WHERE parent_id = 5;
DELETE FROM parents WHERE id = 5;
ROLLBACK;
INSERT INTO parents VALUES (101, now(), 'new');
SELECT p.id, p.id_xid = b.id_xid AS same_id FROM parents p JOIN ids_before b USING (id) ORDER BY p.id;
SELECT count(DISTINCT id_xid) = count(*) AS ids_distinct FROM parents;
CALL xid_move_swap('parents');
CALL xid_move_finish('parents');
SELECT count(*) AS kids, count(p.id) AS with_parent FROM kids k LEFT JOIN parents p ON p.id = k.parent_id;
SELECT count(*) AS dkids, count(p.id) AS with_parent FROM dkids k LEFT JOIN parents p ON p.id = k.parent_id;
SELECT tgname FROM pg_trigger WHERE tgrelid = 'parents'::regclass AND tgname LIKE 'xid_move%';

RESET ROLE;
GRANT SET ON PARAMETER session_replication_role TO regress_xm_owner;
SET ROLE regress_xm_owner;
SET search_path = mr, public;
SELECT object, action FROM xid_move_plan('accounts', 'created_at') WHERE object_type = 'trigger';
CALL xid_move_start('accounts', time_column => 'created_at');
CALL xid_move_backfill('accounts');
SHOW session_replication_role;
SELECT count(*) AS audited FROM audit;
SELECT count(*) AS accounts, count(b.id) AS untouched, count(a.id_xid) AS with_id
FROM accounts a LEFT JOIN touched_before b ON b.tbl = 'accounts' AND b.id = a.id AND b.updated_at = a.updated_at;
SELECT count(*) AS members, count(b.id) AS untouched, count(m.account_id_xid) AS with_ref
FROM members m LEFT JOIN touched_before b ON b.tbl = 'members' AND b.id = m.id AND b.updated_at = m.updated_at;
SELECT * FROM xid_move_index_commands('accounts') \gexec
CALL xid_move_validate('accounts');
CALL xid_move_swap('accounts');
CALL xid_move_finish('accounts', drop_old => true);
SELECT count(*) AS audited FROM audit;
SELECT count(*) AS members, count(a.id) AS with_account FROM members m LEFT JOIN accounts a ON a.id = m.account_id;
RESET ROLE;
REVOKE SET ON PARAMETER session_replication_role FROM regress_xm_owner;
SET ROLE regress_xm_owner;
SET search_path = mr, public;

------------------------------------------------------------------------------
-- (f) a uuid v4 key with a time column: 20,000 rows inserted in one
-- statement during the move share now(); they get xid_new(), not ids from
-- their time and 22 bits of their key, so no two collide
------------------------------------------------------------------------------
CREATE TABLE tokens (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), created_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE uses (id bigint PRIMARY KEY, token_id uuid REFERENCES tokens);
INSERT INTO tokens (created_at) SELECT timestamptz '2024-01-01' + g * interval '1 second' FROM generate_series(1, 1000) g;
SELECT action, sqlstate FROM xid_move_plan('tokens', 'created_at') WHERE object_type = 'ids';
CALL xid_move_start('tokens', time_column => 'created_at');
INSERT INTO tokens (id) SELECT gen_random_uuid() FROM generate_series(1, 20000);
INSERT INTO uses SELECT row_number() OVER (), id FROM tokens WHERE created_at > '2025-01-01';
SELECT count(*) AS inserted, count(DISTINCT created_at) AS times, count(DISTINCT id_xid) AS distinct_ids,
       count(*) FILTER (WHERE id_xid = xid_from_key(created_at, id)) AS ids_from_key
FROM tokens WHERE created_at > '2025-01-01';
CALL xid_move_backfill('tokens');
SELECT * FROM xid_move_index_commands('tokens') \gexec
CALL xid_move_validate('tokens');
SELECT role, relation, step, verified_rows, verified_refs, mismatches FROM xid_move_status('tokens');
CALL xid_move_swap('tokens');
CALL xid_move_finish('tokens');
SELECT count(*) AS tokens, count(DISTINCT id) AS distinct_ids FROM tokens;
SELECT count(*) AS uses, count(t.id) AS with_token FROM uses u LEFT JOIN tokens t ON t.id = u.token_id;

RESET ROLE;
DROP SCHEMA mr CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xm_owner;
DROP ROLE regress_xm_owner;
