--
-- move_kinds: the plan denies by default.  One object of every kind the
-- catalogs can attach to a table or a column of a move (pg_depend on the
-- columns, pg_constraint, pg_trigger of every level, timing and enable
-- mode, pg_rewrite, pg_policy, pg_attrdef, column privileges, comments,
-- identity and generated columns, pg_index with the replica identity,
-- pg_statistic_ext, pg_publication_rel, pg_inherits, partitions that are
-- not tables, owners, functions of other roles), and the plan names each,
-- with what it does with it.  (A security label needs a label provider,
-- which a plain server does not have; the plan refuses one on the column.)
--
CREATE ROLE regress_xk_owner;
CREATE ROLE regress_xk_other;
CREATE SCHEMA mk AUTHORIZATION regress_xk_owner;
GRANT USAGE, CREATE ON SCHEMA mk TO regress_xk_other;
SET client_min_messages = warning;

SET ROLE regress_xk_other;
CREATE FUNCTION mk.others_check(numeric) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE FUNCTION mk.others_trigger() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
GRANT EXECUTE ON FUNCTION mk.others_check(numeric), mk.others_trigger() TO regress_xk_owner;
RESET ROLE;

SET ROLE regress_xk_owner;
SET search_path = mk, public;
CREATE FUNCTION mk.owners_check(numeric) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE FUNCTION mk.noop() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
CREATE TABLE orders (id bigint PRIMARY KEY, created_at timestamptz NOT NULL, total numeric, code text,
	CONSTRAINT orders_owners_check CHECK (mk.owners_check(total)),
	CONSTRAINT orders_others_check CHECK (mk.others_check(total)),
	CONSTRAINT orders_id_positive CHECK (id > 0),
	CONSTRAINT orders_code_key UNIQUE (code),
	CONSTRAINT orders_tenant_id_key UNIQUE (total, id),
	gen_from_id bigint GENERATED ALWAYS AS (id * 2) STORED,
	gen_from_total numeric GENERATED ALWAYS AS (total * 2) STORED);
INSERT INTO orders (id, created_at, total, code) SELECT g, timestamptz '2024-01-01' + g * interval '1 s', g, g::text FROM generate_series(1, 50) g;
CREATE TABLE lines (id bigint PRIMARY KEY, order_id bigint DEFAULT 1 REFERENCES orders, note text,
	seq bigint GENERATED ALWAYS AS IDENTITY);
CREATE SEQUENCE next_order;
CREATE TABLE notes (id bigint PRIMARY KEY, order_id bigint DEFAULT nextval('mk.next_order') REFERENCES orders);
CREATE TABLE lines_archive () INHERITS (lines);
CREATE TABLE lines_2 (id bigint PRIMARY KEY, order_id bigint REFERENCES orders) ;
ALTER TABLE lines_2 FORCE ROW LEVEL SECURITY;
-- views
CREATE VIEW order_ids AS SELECT id FROM orders;
CREATE VIEW order_totals AS SELECT total FROM orders;
CREATE MATERIALIZED VIEW order_ids_mv AS SELECT id FROM orders;
-- rules
CREATE TABLE log (what text);
CREATE RULE orders_log AS ON UPDATE TO orders DO ALSO INSERT INTO log VALUES ('update');
CREATE RULE lines_log AS ON INSERT TO lines DO ALSO INSERT INTO log VALUES ('insert');
-- policies
ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
CREATE POLICY orders_by_id ON orders USING (id > 0);
CREATE POLICY orders_by_total ON orders USING (total >= 0);
-- triggers
CREATE TRIGGER orders_row_update BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION mk.noop();
CREATE TRIGGER orders_stmt_always AFTER UPDATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION mk.noop();
ALTER TABLE orders ENABLE ALWAYS TRIGGER orders_stmt_always;
CREATE TRIGGER orders_insert_only BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION mk.noop();
CREATE TRIGGER orders_disabled BEFORE UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION mk.noop();
ALTER TABLE orders DISABLE TRIGGER orders_disabled;
CREATE TRIGGER orders_when_id BEFORE UPDATE ON orders FOR EACH ROW WHEN (OLD.id <> NEW.id) EXECUTE FUNCTION mk.noop();
CREATE CONSTRAINT TRIGGER lines_constraint AFTER UPDATE ON lines DEFERRABLE FOR EACH ROW EXECUTE FUNCTION mk.noop();
CREATE TRIGGER lines_others BEFORE UPDATE ON lines FOR EACH ROW EXECUTE FUNCTION mk.others_trigger();
ALTER TABLE lines ENABLE REPLICA TRIGGER lines_others;
-- indexes
CREATE INDEX orders_id_hash ON orders USING hash (id);
CREATE INDEX orders_id_brin ON orders USING brin (id);
CREATE INDEX orders_id_partial ON orders (id) WHERE total > 10;
CREATE INDEX orders_id_expr ON orders ((id + 1));
CREATE INDEX orders_id_desc ON orders (id DESC);
CREATE INDEX orders_others_expr ON orders (mk.others_check(total));
CREATE INDEX lines_order_id ON lines (order_id);
CREATE INDEX lines_order_id_text ON lines (order_id) INCLUDE (note);
ALTER TABLE orders REPLICA IDENTITY USING INDEX orders_pkey;
-- statistics, privileges, comments
CREATE STATISTICS orders_stats ON id, total FROM orders;
GRANT SELECT (id) ON orders TO regress_xk_other;
GRANT UPDATE (order_id) ON lines TO regress_xk_other;
COMMENT ON COLUMN lines.order_id IS 'the order';
-- a partitioned referencing table with a partition of another owner
CREATE TABLE events (order_id bigint REFERENCES orders, at date NOT NULL) PARTITION BY RANGE (at);
CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
RESET ROLE;
CREATE TABLE mk.events_2025 PARTITION OF mk.events FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
ALTER TABLE mk.events_2025 OWNER TO regress_xk_other;
-- publications
SET client_min_messages = error;
CREATE PUBLICATION regress_xk_all FOR TABLE mk.orders;
CREATE PUBLICATION regress_xk_cols FOR TABLE mk.lines (id, order_id);
SET client_min_messages = warning;

-- the plan, as the owner (who may not set session_replication_role)
SET ROLE regress_xk_owner;
SELECT object_type, object, action, sqlstate
FROM public.xid_move_plan('mk.orders', 'created_at')
ORDER BY object_type COLLATE "C", object COLLATE "C", action COLLATE "C";
-- nothing starts
SELECT count(*) AS refusals FROM public.xid_move_plan('mk.orders', 'created_at') WHERE action = 'refuse';
RESET ROLE;
SELECT count(*) AS moves FROM public.xid_move_moves;

DROP PUBLICATION regress_xk_all, regress_xk_cols;
DROP SCHEMA mk CASCADE;
RESET client_min_messages;
DROP OWNED BY regress_xk_owner;
DROP OWNED BY regress_xk_other;
DROP ROLE regress_xk_owner, regress_xk_other;
