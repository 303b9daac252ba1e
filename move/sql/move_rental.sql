--
-- move_rental: a schema in the shape of a DVD-rental sample database
-- (customers, staff, films in languages, inventory, rentals, payments
-- partitioned by month), moved to xid key by key while its rows are
-- compared with what they were: three keys one after another (customer,
-- inventory, film), then two at once (staff and language, whose moves
-- share no relation).  After each move: the catalog's descriptions by name
-- against a snapshot taken before (only what a move is expected to change
-- differs: the key's and references' type and place, the copies' names),
-- every row and every reference (each still names the row it named), the
-- unique rental (rental_date, inventory_id, customer_id) still refusing a
-- duplicate, last_update not rewritten by the backfill.  Between validate
-- and swap of the customer move the application writes: inserts, a key
-- updated with ON UPDATE CASCADE, a delete with ON DELETE CASCADE.
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
CREATE ROLE regress_rental_owner;
CREATE ROLE regress_rental_clerk;
CREATE SCHEMA dvd AUTHORIZATION regress_rental_owner;
GRANT USAGE ON SCHEMA dvd TO regress_rental_clerk;
GRANT SET ON PARAMETER session_replication_role TO regress_rental_owner;
\set VERBOSITY terse
SET client_min_messages = warning;
SET ROLE regress_rental_owner;
SET search_path = dvd, public;
SET TIME ZONE 'UTC';

-- the schema
CREATE FUNCTION dvd.last_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.last_update := pg_catalog.now();
	RETURN NEW;
END
$$;
CREATE TABLE language (language_id serial PRIMARY KEY, name text NOT NULL,
	create_date timestamptz NOT NULL, last_update timestamptz NOT NULL);
CREATE TABLE film (film_id serial PRIMARY KEY, title text NOT NULL, release_year int,
	language_id int NOT NULL REFERENCES language ON UPDATE CASCADE ON DELETE RESTRICT,
	rental_rate numeric(4,2) NOT NULL DEFAULT 4.99, create_date timestamptz NOT NULL, last_update timestamptz NOT NULL);
CREATE INDEX idx_fk_language_id ON film (language_id);
CREATE INDEX idx_title ON film (title);
CREATE TABLE staff (staff_id serial PRIMARY KEY, first_name text NOT NULL, last_name text NOT NULL,
	store_id int NOT NULL, create_date timestamptz NOT NULL, last_update timestamptz NOT NULL);
CREATE TABLE customer (customer_id serial PRIMARY KEY, store_id int NOT NULL, first_name text NOT NULL,
	last_name text NOT NULL, email text, activebool boolean NOT NULL DEFAULT true,
	create_date timestamptz NOT NULL, last_update timestamptz NOT NULL);
CREATE INDEX idx_last_name ON customer (last_name);
CREATE TABLE inventory (inventory_id serial PRIMARY KEY,
	film_id int NOT NULL REFERENCES film ON UPDATE CASCADE ON DELETE RESTRICT,
	store_id int NOT NULL, create_date timestamptz NOT NULL, last_update timestamptz NOT NULL);
CREATE INDEX idx_store_id_film_id ON inventory (store_id, film_id);
CREATE TABLE rental (rental_id serial PRIMARY KEY, rental_date timestamptz NOT NULL,
	inventory_id int NOT NULL REFERENCES inventory ON UPDATE CASCADE ON DELETE RESTRICT,
	customer_id int NOT NULL REFERENCES customer ON UPDATE CASCADE ON DELETE CASCADE,
	return_date timestamptz, staff_id int NOT NULL REFERENCES staff ON UPDATE CASCADE ON DELETE RESTRICT,
	last_update timestamptz NOT NULL);
CREATE UNIQUE INDEX idx_unq_rental_rental_date_inventory_id_customer_id ON rental (rental_date, inventory_id, customer_id);
CREATE INDEX idx_fk_inventory_id ON rental (inventory_id);
CREATE TABLE payment (payment_id serial, customer_id int NOT NULL, staff_id int NOT NULL,
	rental_id int NOT NULL, amount numeric(5,2) NOT NULL, payment_date timestamptz NOT NULL,
	PRIMARY KEY (payment_date, payment_id)) PARTITION BY RANGE (payment_date);
CREATE TABLE payment_p2022_01 PARTITION OF payment FOR VALUES FROM ('2022-01-01') TO ('2022-02-01');
CREATE TABLE payment_p2022_02 PARTITION OF payment FOR VALUES FROM ('2022-02-01') TO ('2022-03-01');
CREATE TABLE payment_p2022_03 PARTITION OF payment FOR VALUES FROM ('2022-03-01') TO ('2022-04-01');
CREATE TABLE payment_p2022_04 PARTITION OF payment FOR VALUES FROM ('2022-04-01') TO ('2022-05-01');
-- the sample's shape: foreign keys and indexes declared on each partition
CREATE INDEX payment_p2022_01_customer_id_idx ON payment_p2022_01 (customer_id);
CREATE INDEX payment_p2022_02_customer_id_idx ON payment_p2022_02 (customer_id);
CREATE INDEX payment_p2022_03_customer_id_idx ON payment_p2022_03 (customer_id);
CREATE INDEX payment_p2022_04_customer_id_idx ON payment_p2022_04 (customer_id);
CREATE INDEX idx_fk_payment_staff_id ON payment (staff_id);
ALTER TABLE payment_p2022_01 ADD CONSTRAINT payment_p2022_01_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customer ON DELETE CASCADE;
ALTER TABLE payment_p2022_02 ADD CONSTRAINT payment_p2022_02_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customer ON DELETE CASCADE;
ALTER TABLE payment_p2022_03 ADD CONSTRAINT payment_p2022_03_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customer ON DELETE CASCADE;
ALTER TABLE payment_p2022_04 ADD CONSTRAINT payment_p2022_04_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customer ON DELETE CASCADE;
ALTER TABLE payment ADD FOREIGN KEY (staff_id) REFERENCES staff ON UPDATE CASCADE ON DELETE RESTRICT;
ALTER TABLE payment ADD FOREIGN KEY (rental_id) REFERENCES rental ON UPDATE CASCADE ON DELETE CASCADE;
CREATE TRIGGER last_updated BEFORE UPDATE ON language FOR EACH ROW EXECUTE FUNCTION dvd.last_updated();
CREATE TRIGGER last_updated BEFORE UPDATE ON film FOR EACH ROW EXECUTE FUNCTION dvd.last_updated();
CREATE TRIGGER last_updated BEFORE UPDATE ON staff FOR EACH ROW EXECUTE FUNCTION dvd.last_updated();
CREATE TRIGGER last_updated BEFORE UPDATE ON customer FOR EACH ROW EXECUTE FUNCTION dvd.last_updated();
CREATE TRIGGER last_updated BEFORE UPDATE ON inventory FOR EACH ROW EXECUTE FUNCTION dvd.last_updated();
CREATE TRIGGER last_updated BEFORE UPDATE ON rental FOR EACH ROW EXECUTE FUNCTION dvd.last_updated();
-- views: over a moved key (refused by the plan) and over other columns
CREATE VIEW customer_list AS
	SELECT c.customer_id AS id, c.first_name || ' ' || c.last_name AS name, c.store_id AS sid
	FROM customer c;
CREATE VIEW film_list AS
	SELECT f.film_id AS fid, f.title, l.name AS language FROM film f JOIN language l USING (language_id);
CREATE VIEW staff_names AS SELECT first_name, last_name FROM staff;
-- functions on the keys' type
CREATE FUNCTION dvd.inventory_in_stock(p_inventory_id integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT NOT EXISTS (SELECT FROM dvd.rental WHERE inventory_id = $1 AND return_date IS NULL)
$$;
CREATE FUNCTION dvd.film_in_stock(p_film_id integer, p_store_id integer) RETURNS SETOF integer
LANGUAGE sql STABLE AS $$
	SELECT inventory_id FROM dvd.inventory WHERE film_id = $1 AND store_id = $2
	  AND dvd.inventory_in_stock(inventory_id)
$$;
CREATE FUNCTION dvd.inventory_held_by_customer(p_inventory_id integer) RETURNS integer
LANGUAGE sql STABLE AS $$
	SELECT customer_id FROM dvd.rental WHERE inventory_id = $1 AND return_date IS NULL
$$;
CREATE FUNCTION dvd.get_customer_balance(p_customer_id integer, p_effective_date timestamptz) RETURNS numeric
LANGUAGE sql STABLE AS $$
	SELECT coalesce(sum(amount), 0) FROM dvd.payment WHERE customer_id = $1 AND payment_date <= $2
$$;
-- grants, comments, properties
GRANT SELECT ON ALL TABLES IN SCHEMA dvd TO regress_rental_clerk;
GRANT INSERT, UPDATE ON rental, payment TO regress_rental_clerk;
GRANT UPDATE (email) ON customer TO regress_rental_clerk;
GRANT SELECT (customer_id), REFERENCES (customer_id) ON customer TO regress_rental_clerk;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA dvd TO regress_rental_clerk;
COMMENT ON TABLE customer IS 'the customers';
COMMENT ON COLUMN customer.customer_id IS 'the customer''s key';
COMMENT ON COLUMN rental.customer_id IS 'who rented it';
COMMENT ON COLUMN rental.inventory_id IS 'the copy rented';
COMMENT ON COLUMN inventory.film_id IS 'the film of the copy';
COMMENT ON INDEX idx_unq_rental_rental_date_inventory_id_customer_id IS 'one rental of a copy by a customer at a time';
COMMENT ON CONSTRAINT customer_pkey ON customer IS 'the customers'' key';
ALTER TABLE rental ALTER COLUMN customer_id SET STATISTICS 500;
ALTER TABLE rental ALTER COLUMN inventory_id SET (n_distinct = -0.5);
ALTER TABLE inventory ALTER COLUMN film_id SET STATISTICS 200;
ALTER TABLE rental SET (fillfactor = 90);

-- the rows: fixed times, every reference from a formula
INSERT INTO language SELECT g, (ARRAY['English', 'Italian', 'Japanese'])[g],
	timestamptz '2020-01-01' + g * interval '1 hour', timestamptz '2021-06-01' FROM generate_series(1, 3) g;
INSERT INTO film SELECT g, 'Film ' || g, 2000 + g % 20, g % 3 + 1, 0.99 + g % 3 * 2,
	timestamptz '2020-02-01' + g * interval '1 hour', timestamptz '2021-06-01' FROM generate_series(1, 100) g;
INSERT INTO staff SELECT g, 'Staff', 'Member ' || g, g, timestamptz '2020-01-15' + g * interval '1 day', timestamptz '2021-06-01'
FROM generate_series(1, 2) g;
INSERT INTO customer SELECT g, g % 2 + 1, 'First' || g, 'Last' || (g % 50), 'c' || g || '@example.com', g % 10 <> 0,
	timestamptz '2020-03-01' + g * interval '37 minutes', timestamptz '2021-06-01' + g * interval '1 second'
FROM generate_series(1, 200) g;
INSERT INTO inventory SELECT g, (g - 1) % 100 + 1, g % 2 + 1, timestamptz '2020-04-01' + g * interval '13 minutes',
	timestamptz '2021-06-01' + g * interval '1 second' FROM generate_series(1, 400) g;
INSERT INTO rental SELECT g, timestamptz '2022-01-01' + g * interval '2 hours', (g * 7) % 400 + 1, (g * 13) % 200 + 1,
	CASE WHEN g % 9 = 0 THEN NULL ELSE timestamptz '2022-01-01' + g * interval '2 hours' + interval '3 days' END,
	g % 2 + 1, timestamptz '2022-06-01' + g * interval '1 second' FROM generate_series(1, 1200) g;
INSERT INTO payment SELECT r.rental_id, r.customer_id, r.staff_id, r.rental_id, 0.99 + r.rental_id % 5,
	r.rental_date + interval '1 hour' FROM rental r WHERE r.rental_date < '2022-04-30';
SELECT count(setval(s, 5000)) AS sequences_set FROM unnest(ARRAY['language_language_id_seq', 'film_film_id_seq', 'staff_staff_id_seq',
	'customer_customer_id_seq', 'inventory_inventory_id_seq', 'rental_rental_id_seq', 'payment_payment_id_seq']) s;
ANALYZE language, film, staff, customer, inventory, rental, payment;

-- what is compared after each move.  The catalog, by name: each column
-- (type, place among the columns, NOT NULL, default), its privileges,
-- comment, statistics target and options; each relation's privileges,
-- options, comment and replica identity; each index's definition,
-- validity and comment; each constraint's definition and comment (not 18's
-- NOT NULL rows); each trigger; each sequence and who owns it; each
-- function's signature.  (A build of PostgreSQL may keep a version of
-- its own among a column's options, pg_attver: left out.)
CREATE FUNCTION pg_temp.catalog() RETURNS SETOF text LANGUAGE sql AS $$
	SELECT format('column %s.%s %s place %s%s%s', c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
		rank() OVER (PARTITION BY c.oid ORDER BY a.attnum), CASE WHEN a.attnotnull THEN ' not null' ELSE '' END,
		' default ' || pg_get_expr(d.adbin, d.adrelid))
	FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
	WHERE c.relnamespace = 'dvd'::regnamespace AND c.relkind IN ('r', 'p', 'v') AND a.attnum > 0 AND NOT a.attisdropped
	UNION ALL
	SELECT format('column %s.%s%s%s%s%s', c.relname, a.attname, ' acl ' || a.attacl::text, ' comment ' || col_description(c.oid, a.attnum),
		' statistics ' || nullif(a.attstattarget, -1), ' options ' || (SELECT array_agg(o ORDER BY o) FROM unnest(a.attoptions) o WHERE o NOT LIKE 'pg\_attver=%')::text)
	FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
	WHERE c.relnamespace = 'dvd'::regnamespace AND c.relkind IN ('r', 'p', 'v') AND a.attnum > 0 AND NOT a.attisdropped
	  AND (a.attacl IS NOT NULL OR col_description(c.oid, a.attnum) IS NOT NULL OR nullif(a.attstattarget, -1) IS NOT NULL OR EXISTS (SELECT FROM unnest(a.attoptions) o WHERE o NOT LIKE 'pg\_attver=%'))
	UNION ALL
	SELECT format('relation %s %s%s%s%s identity %s', c.relname, c.relkind, ' acl ' || c.relacl::text, ' options ' || c.reloptions::text,
		' comment ' || obj_description(c.oid, 'pg_class'), c.relreplident)
	FROM pg_class c WHERE c.relnamespace = 'dvd'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'S')
	UNION ALL
	SELECT format('index %s: %s%s%s%s', c.relname, pg_get_indexdef(i.indexrelid), CASE WHEN NOT i.indisvalid THEN ' INVALID' ELSE '' END,
		CASE WHEN i.indisclustered THEN ' CLUSTERED' ELSE '' END, ' comment ' || obj_description(c.oid, 'pg_class'))
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = 'dvd'::regnamespace
	UNION ALL
	SELECT format('constraint %s.%s: %s%s%s', r.relname, con.conname, pg_get_constraintdef(con.oid), CASE WHEN NOT con.convalidated THEN ' NOT VALIDATED' ELSE '' END,
		' comment ' || obj_description(con.oid, 'pg_constraint'))
	FROM pg_constraint con JOIN pg_class r ON r.oid = con.conrelid WHERE r.relnamespace = 'dvd'::regnamespace AND con.contype <> 'n'
	UNION ALL
	SELECT format('trigger %s', pg_get_triggerdef(t.oid)) FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid
	WHERE r.relnamespace = 'dvd'::regnamespace AND NOT t.tgisinternal
	UNION ALL
	SELECT format('sequence %s owned by %s.%s', s.relname, r.relname, a.attname)
	FROM pg_class s JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype = 'a' AND d.refclassid = 'pg_class'::regclass
	JOIN pg_class r ON r.oid = d.refobjid JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum = d.refobjsubid
	WHERE s.relnamespace = 'dvd'::regnamespace AND s.relkind = 'S'
	UNION ALL
	SELECT format('function %s(%s) returns %s', p.proname, pg_get_function_identity_arguments(p.oid), pg_get_function_result(p.oid))
	FROM pg_proc p WHERE p.pronamespace = 'dvd'::regnamespace
$$;
-- the rows: per table, how many and a digest of what is not a moved key;
-- per reference, how many rows join the row they reference and a digest of
-- what they join (so each still names the same row), and how many name
-- none
CREATE FUNCTION pg_temp.rows() RETURNS TABLE (what text, n bigint, digest text) LANGUAGE sql AS $$
	SELECT 'rows language', count(*), md5(string_agg(format('%s|%s|%s', name, create_date, last_update), ',' ORDER BY name)) FROM dvd.language
	UNION ALL
	SELECT 'rows film', count(*), md5(string_agg(format('%s|%s|%s|%s|%s', title, release_year, rental_rate, create_date, last_update), ',' ORDER BY title)) FROM dvd.film
	UNION ALL
	SELECT 'rows staff', count(*), md5(string_agg(format('%s|%s|%s|%s|%s', first_name, last_name, store_id, create_date, last_update), ',' ORDER BY last_name)) FROM dvd.staff
	UNION ALL
	SELECT 'rows customer', count(*), md5(string_agg(format('%s|%s|%s|%s|%s|%s|%s', store_id, first_name, last_name, email, activebool, create_date, last_update), ',' ORDER BY email)) FROM dvd.customer
	UNION ALL
	SELECT 'rows inventory', count(*), md5(string_agg(format('%s|%s|%s', store_id, create_date, last_update), ',' ORDER BY create_date)) FROM dvd.inventory
	UNION ALL
	SELECT 'rows rental', count(*), md5(string_agg(format('%s|%s|%s|%s', rental_id, rental_date, return_date, last_update), ',' ORDER BY rental_id)) FROM dvd.rental
	UNION ALL
	SELECT 'rows payment', count(*), md5(string_agg(format('%s|%s|%s|%s', payment_id, rental_id, amount, payment_date), ',' ORDER BY payment_id)) FROM dvd.payment
	UNION ALL
	SELECT 'reference film.language_id', count(*), md5(string_agg(format('%s>%s', f.title, l.name), ',' ORDER BY f.title)) FROM dvd.film f JOIN dvd.language l ON l.language_id = f.language_id
	UNION ALL
	SELECT 'reference inventory.film_id', count(*), md5(string_agg(format('%s>%s', i.create_date, f.title), ',' ORDER BY i.create_date)) FROM dvd.inventory i JOIN dvd.film f ON f.film_id = i.film_id
	UNION ALL
	SELECT 'reference rental.inventory_id', count(*), md5(string_agg(format('%s>%s', r.rental_id, i.create_date), ',' ORDER BY r.rental_id)) FROM dvd.rental r JOIN dvd.inventory i ON i.inventory_id = r.inventory_id
	UNION ALL
	SELECT 'reference rental.customer_id', count(*), md5(string_agg(format('%s>%s', r.rental_id, c.email), ',' ORDER BY r.rental_id)) FROM dvd.rental r JOIN dvd.customer c ON c.customer_id = r.customer_id
	UNION ALL
	SELECT 'reference rental.staff_id', count(*), md5(string_agg(format('%s>%s', r.rental_id, s.last_name), ',' ORDER BY r.rental_id)) FROM dvd.rental r JOIN dvd.staff s ON s.staff_id = r.staff_id
	UNION ALL
	SELECT 'reference payment.customer_id', count(*), md5(string_agg(format('%s>%s', p.payment_id, c.email), ',' ORDER BY p.payment_id)) FROM dvd.payment p JOIN dvd.customer c ON c.customer_id = p.customer_id
	UNION ALL
	SELECT 'reference payment.staff_id', count(*), md5(string_agg(format('%s>%s', p.payment_id, s.last_name), ',' ORDER BY p.payment_id)) FROM dvd.payment p JOIN dvd.staff s ON s.staff_id = p.staff_id
	UNION ALL
	SELECT 'reference payment.rental_id', count(*), md5(string_agg(format('%s>%s', p.payment_id, r.rental_date), ',' ORDER BY p.payment_id)) FROM dvd.payment p JOIN dvd.rental r ON r.rental_id = p.rental_id
	UNION ALL
	SELECT 'dangling references', (SELECT count(*) FROM dvd.film f WHERE NOT EXISTS (SELECT FROM dvd.language l WHERE l.language_id = f.language_id))
		+ (SELECT count(*) FROM dvd.inventory i WHERE NOT EXISTS (SELECT FROM dvd.film f WHERE f.film_id = i.film_id))
		+ (SELECT count(*) FROM dvd.rental r WHERE NOT EXISTS (SELECT FROM dvd.inventory i WHERE i.inventory_id = r.inventory_id)
		                                        OR NOT EXISTS (SELECT FROM dvd.customer c WHERE c.customer_id = r.customer_id)
		                                        OR NOT EXISTS (SELECT FROM dvd.staff s WHERE s.staff_id = r.staff_id))
		+ (SELECT count(*) FROM dvd.payment p WHERE NOT EXISTS (SELECT FROM dvd.customer c WHERE c.customer_id = p.customer_id)
		                                         OR NOT EXISTS (SELECT FROM dvd.staff s WHERE s.staff_id = p.staff_id)
		                                         OR NOT EXISTS (SELECT FROM dvd.rental r WHERE r.rental_id = p.rental_id)), NULL
$$;
-- each row's last_update, by what names the row without its key
CREATE FUNCTION pg_temp.last_updates() RETURNS TABLE (tbl text, row_name text, last_update timestamptz) LANGUAGE sql AS $$
	SELECT 'language', name, last_update FROM dvd.language
	UNION ALL SELECT 'film', title, last_update FROM dvd.film
	UNION ALL SELECT 'staff', last_name, last_update FROM dvd.staff
	UNION ALL SELECT 'customer', email, last_update FROM dvd.customer
	UNION ALL SELECT 'inventory', create_date::text, last_update FROM dvd.inventory
	UNION ALL SELECT 'rental', rental_id::text, last_update FROM dvd.rental
$$;
-- what differs from a snapshot
CREATE FUNCTION pg_temp.catalog_diff(snap text) RETURNS TABLE (side text, d text) LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('(SELECT %L, d FROM %I EXCEPT SELECT %L, x FROM pg_temp.catalog() x)
		UNION ALL (SELECT %L, x FROM pg_temp.catalog() x EXCEPT SELECT %L, d FROM %I) ORDER BY 2, 1',
		'before', snap, 'before', 'after', 'after', snap);
END
$$;
CREATE FUNCTION pg_temp.rows_diff(snap text) RETURNS TABLE (side text, what text, n bigint) LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('(SELECT %L, what, n FROM (SELECT * FROM %I EXCEPT SELECT * FROM pg_temp.rows()) x)
		UNION ALL (SELECT %L, what, n FROM (SELECT * FROM pg_temp.rows() EXCEPT SELECT * FROM %I) y) ORDER BY 2, 1',
		'before', snap, 'after', snap);
END
$$;
CREATE FUNCTION pg_temp.rewritten(snap text) RETURNS TABLE (tbl text, rows_rewritten bigint) LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT b.tbl, count(*) FILTER (WHERE a.last_update IS DISTINCT FROM b.last_update)
		FROM %I b LEFT JOIN pg_temp.last_updates() a USING (tbl, row_name) GROUP BY 1 ORDER BY 1', snap);
END
$$;
-- a rental that repeats one (rental_date, inventory_id, customer_id)
CREATE FUNCTION pg_temp.duplicate_rental() RETURNS text LANGUAGE sql AS $$
	SELECT left(pg_temp.try($q$INSERT INTO dvd.rental (rental_date, inventory_id, customer_id, staff_id, last_update)
		SELECT rental_date, inventory_id, customer_id, staff_id, last_update FROM dvd.rental WHERE rental_id = 100$q$), 5)
$$;
CREATE TEMP TABLE catalog0 AS SELECT x AS d FROM pg_temp.catalog() x;
CREATE TEMP TABLE rows0 AS SELECT * FROM pg_temp.rows();
CREATE TEMP TABLE last0 AS SELECT * FROM pg_temp.last_updates();
SELECT what, n FROM rows0 ORDER BY 1;
SELECT pg_temp.duplicate_rental() AS duplicate_rental;

-- 1. customer.  The sample's foreign keys declared on each partition of
-- payment are refused (0A000, with the way out), and so is the view over
-- the key
SELECT object_type, object, sqlstate, hint FROM xid_move_plan('customer', 'create_date') WHERE action = 'refuse' ORDER BY 1, 2;
SELECT pg_temp.try($$CALL xid_move_start('customer', time_column => 'create_date')$$) AS start;
-- as the hint says: one foreign key on the partitioned table (every
-- partition gets its own from it), and the view dropped for the move
ALTER TABLE payment_p2022_01 DROP CONSTRAINT payment_p2022_01_customer_id_fkey;
ALTER TABLE payment_p2022_02 DROP CONSTRAINT payment_p2022_02_customer_id_fkey;
ALTER TABLE payment_p2022_03 DROP CONSTRAINT payment_p2022_03_customer_id_fkey;
ALTER TABLE payment_p2022_04 DROP CONSTRAINT payment_p2022_04_customer_id_fkey;
ALTER TABLE payment ADD FOREIGN KEY (customer_id) REFERENCES customer ON UPDATE CASCADE ON DELETE CASCADE;
CREATE TEMP TABLE catalog1 AS SELECT x AS d FROM pg_temp.catalog() x;
DROP VIEW customer_list;
SELECT action, object_type, object FROM xid_move_plan('customer', 'create_date') ORDER BY 2, 3, 1;
SELECT object FROM xid_move_plan('customer', 'create_date') WHERE object_type = 'function' ORDER BY 1;
CALL xid_move_start('customer', time_column => 'create_date');
-- a move of inventory would change rental, which this move changes
SELECT pg_temp.try($$CALL xid_move_start('inventory', time_column => 'create_date')$$) AS second_move;
CALL xid_move_backfill('customer');
-- the backfill fired no last_update trigger
SELECT * FROM pg_temp.rewritten('last0');
SELECT * FROM xid_move_index_commands('customer') \gexec
CALL xid_move_validate('customer');
-- the application writes between validate and swap: a new customer with
-- a rental and its payment, a rental and a payment of an existing
-- customer, a customer's key changed (ON UPDATE CASCADE to rental and
-- payment), a customer deleted (ON DELETE CASCADE to rental and payment)
INSERT INTO customer (store_id, first_name, last_name, email, create_date, last_update)
VALUES (1, 'New', 'Customer', 'new@example.com', '2022-05-01', '2022-05-01');
INSERT INTO rental (rental_id, rental_date, inventory_id, customer_id, staff_id, last_update)
SELECT 3000, timestamptz '2022-04-10', 5, customer_id, 1, timestamptz '2022-05-01' FROM customer WHERE email = 'new@example.com'
UNION ALL SELECT 3001, timestamptz '2022-04-11', 6, customer_id, 2, timestamptz '2022-05-01' FROM customer WHERE email = 'c20@example.com';
INSERT INTO payment (payment_id, customer_id, staff_id, rental_id, amount, payment_date)
SELECT 3000 + i, r.customer_id, r.staff_id, r.rental_id, 1.99, r.rental_date + interval '1 hour' FROM rental r, (VALUES (0), (1)) v(i)
WHERE r.rental_id = 3000 + i;
UPDATE customer SET customer_id = 7007 WHERE customer_id = 7;
SELECT count(*) AS rentals_of_7007, (SELECT count(*) FROM payment WHERE customer_id = 7007) AS payments_of_7007 FROM rental WHERE customer_id = 7007;
SELECT count(*) AS rentals_of_11, (SELECT count(*) FROM payment WHERE customer_id = 11) AS payments_of_11 FROM rental WHERE customer_id = 11;
DELETE FROM customer WHERE customer_id = 11;
-- what the swap must keep: the rows as they are now
CREATE TEMP TABLE rows1 AS SELECT * FROM pg_temp.rows();
SELECT * FROM pg_temp.rows_diff('rows0');
CALL xid_move_swap('customer');
CALL xid_move_finish('customer');
CREATE VIEW customer_list AS
	SELECT c.customer_id AS id, c.first_name || ' ' || c.last_name AS name, c.store_id AS sid
	FROM customer c;
GRANT SELECT ON customer_list TO regress_rental_clerk;
-- nothing lost: every row and reference as before the swap
SELECT * FROM pg_temp.rows_diff('rows1');
-- the writes are there: the new customer's rental and payment, customer
-- 7007's (the old key, kept in customer_id_old) and none of 11
SELECT c.email, c.customer_id_old, count(DISTINCT r.rental_id) AS rentals, count(DISTINCT p.payment_id) AS payments
FROM customer c LEFT JOIN rental r ON r.customer_id = c.customer_id LEFT JOIN payment p ON p.customer_id = c.customer_id
WHERE c.email IN ('new@example.com', 'c7@example.com', 'c11@example.com', 'c20@example.com') GROUP BY 1, 2 ORDER BY 1;
SELECT count(*) AS rows_of_11 FROM rental r WHERE r.customer_id_old = 11;
-- the rows whose last_update changed or that are gone: customers 7
-- (updated) and 11 (deleted), and their rentals (the cascades), no other
SELECT * FROM pg_temp.rewritten('last0') WHERE rows_rewritten > 0;
-- the catalog: what the move changes, and nothing else
SELECT * FROM pg_temp.catalog_diff('catalog1');
SELECT pg_temp.duplicate_rental() AS duplicate_rental;
-- the functions the plan listed take the old key: what the application
-- changes (docs/move.md), here get_customer_balance
SELECT pg_temp.try($$SELECT dvd.get_customer_balance(20, '2023-01-01')$$) AS old_balance;
DROP FUNCTION get_customer_balance(integer, timestamptz);
CREATE FUNCTION dvd.get_customer_balance(p_customer_id public.xid, p_effective_date timestamptz) RETURNS numeric
LANGUAGE sql STABLE AS $$
	SELECT coalesce(sum(amount), 0) FROM dvd.payment WHERE customer_id OPERATOR(public.=) $1 AND payment_date <= $2
$$;
SELECT get_customer_balance(customer_id, '2023-01-01') AS balance FROM customer WHERE email = 'c20@example.com';
CREATE TEMP TABLE last1 AS SELECT * FROM pg_temp.last_updates();

-- 2. inventory: rental's unique (rental_date, inventory_id, customer_id)
-- is now the customer move's copy on the new customer_id, and the old
-- index stays on customer_id_old (the customer move kept its old columns):
-- both are moved
CREATE TEMP TABLE catalog2 AS SELECT x AS d FROM pg_temp.catalog() x;
SELECT action, object_type, object FROM xid_move_plan('inventory', 'create_date') ORDER BY 2, 3, 1;
SELECT object FROM xid_move_plan('inventory', 'create_date') WHERE object_type = 'function' ORDER BY 1;
CALL xid_move_start('inventory', time_column => 'create_date');
CALL xid_move_backfill('inventory');
SELECT * FROM pg_temp.rewritten('last1') WHERE rows_rewritten > 0;
SELECT * FROM xid_move_index_commands('inventory') \gexec
CALL xid_move_validate('inventory');
CALL xid_move_swap('inventory');
SELECT pg_temp.duplicate_rental() AS duplicate_rental_after_swap;
CALL xid_move_finish('inventory', drop_old => true);
SELECT * FROM pg_temp.rows_diff('rows1');
SELECT * FROM pg_temp.rewritten('last1') WHERE rows_rewritten > 0;
SELECT * FROM pg_temp.catalog_diff('catalog2');
SELECT pg_temp.duplicate_rental() AS duplicate_rental;
-- the inventory functions the plan listed, made again on xid
SELECT left(pg_temp.try($$SELECT count(*) FROM dvd.film_in_stock(1, 2)$$), 5) AS old_film_in_stock;
DROP FUNCTION film_in_stock(integer, integer), inventory_in_stock(integer), inventory_held_by_customer(integer);
CREATE FUNCTION dvd.inventory_in_stock(p_inventory_id public.xid) RETURNS boolean
LANGUAGE sql STABLE AS $$
	SELECT NOT EXISTS (SELECT FROM dvd.rental WHERE inventory_id OPERATOR(public.=) $1 AND return_date IS NULL)
$$;
CREATE FUNCTION dvd.film_in_stock(p_film_id integer, p_store_id integer) RETURNS SETOF public.xid
LANGUAGE sql STABLE AS $$
	SELECT inventory_id FROM dvd.inventory WHERE film_id = $1 AND store_id = $2
	  AND dvd.inventory_in_stock(inventory_id)
$$;
CREATE FUNCTION dvd.inventory_held_by_customer(p_inventory_id public.xid) RETURNS public.xid
LANGUAGE sql STABLE AS $$
	SELECT customer_id FROM dvd.rental WHERE inventory_id OPERATOR(public.=) $1 AND return_date IS NULL
$$;
SELECT count(*) AS in_stock FROM film_in_stock(1, 2);
SELECT count(*) AS copies_held FROM rental r WHERE r.return_date IS NULL AND inventory_held_by_customer(r.inventory_id) IS NOT NULL;

-- 3. film: the view over film_id is refused, dropped and made again
CREATE TEMP TABLE catalog3 AS SELECT x AS d FROM pg_temp.catalog() x;
SELECT pg_temp.try($$CALL xid_move_start('film', time_column => 'create_date')$$) AS start;
DROP VIEW film_list;
SELECT action, object_type, object FROM xid_move_plan('film', 'create_date') ORDER BY 2, 3, 1;
SELECT object FROM xid_move_plan('film', 'create_date') WHERE object_type = 'function' ORDER BY 1;
CALL xid_move_start('film', time_column => 'create_date');
CALL xid_move_backfill('film');
SELECT * FROM xid_move_index_commands('film') \gexec
CALL xid_move_validate('film');
CALL xid_move_swap('film');
CALL xid_move_finish('film', drop_old => true);
CREATE VIEW film_list AS
	SELECT f.film_id AS fid, f.title, l.name AS language FROM film f JOIN language l USING (language_id);
GRANT SELECT ON film_list TO regress_rental_clerk;
SELECT * FROM pg_temp.rows_diff('rows1');
SELECT * FROM pg_temp.rewritten('last1') WHERE rows_rewritten > 0;
SELECT * FROM pg_temp.catalog_diff('catalog3');
SELECT pg_temp.duplicate_rental() AS duplicate_rental;
SELECT left(pg_temp.try($$SELECT count(*) FROM dvd.film_in_stock(1, 2)$$), 5) AS old_film_in_stock;
DROP FUNCTION film_in_stock(integer, integer);
CREATE FUNCTION dvd.film_in_stock(p_film_id public.xid, p_store_id integer) RETURNS SETOF public.xid
LANGUAGE sql STABLE AS $$
	SELECT inventory_id FROM dvd.inventory WHERE film_id OPERATOR(public.=) $1 AND store_id = $2
	  AND dvd.inventory_in_stock(inventory_id)
$$;
SELECT count(*) AS in_stock FROM film f, film_in_stock(f.film_id, 2) WHERE f.title = 'Film 1';

-- 4. staff and language at once: their moves share no relation (staff:
-- rental, payment; language: film)
CREATE TEMP TABLE catalog4 AS SELECT x AS d FROM pg_temp.catalog() x;
SELECT action, object_type, object, sqlstate FROM xid_move_plan('language', 'create_date') WHERE action = 'refuse' ORDER BY 2, 3, 1;
DROP VIEW film_list;
SELECT action, object_type, object FROM xid_move_plan('staff', 'create_date') ORDER BY 2, 3, 1;
SELECT action, object_type, object FROM xid_move_plan('language', 'create_date') ORDER BY 2, 3, 1;
CALL xid_move_start('staff', time_column => 'create_date');
CALL xid_move_start('language', time_column => 'create_date');
SELECT tbl, step FROM xid_move_moves ORDER BY 1::text;
CALL xid_move_backfill('language');
CALL xid_move_backfill('staff');
SELECT * FROM pg_temp.rewritten('last1') WHERE rows_rewritten > 0;
SELECT * FROM xid_move_index_commands('staff') \gexec
SELECT * FROM xid_move_index_commands('language') \gexec
CALL xid_move_validate('staff');
CALL xid_move_validate('language');
CALL xid_move_swap('language');
CALL xid_move_swap('staff');
CALL xid_move_finish('staff', drop_old => true);
CALL xid_move_finish('language');
SELECT count(*) AS moves_under_way FROM xid_move_moves;
CREATE VIEW film_list AS
	SELECT f.film_id AS fid, f.title, l.name AS language FROM film f JOIN language l USING (language_id);
GRANT SELECT ON film_list TO regress_rental_clerk;
SELECT * FROM pg_temp.rows_diff('rows1');
SELECT * FROM pg_temp.rewritten('last1') WHERE rows_rewritten > 0;
SELECT * FROM pg_temp.catalog_diff('catalog4');
SELECT pg_temp.duplicate_rental() AS duplicate_rental;

-- the whole schema against the first snapshot, but for the columns' types
-- and places: what differs is the foreign keys declared on payment
-- instead of its partitions, the functions made again on xid, and what the
-- moves finished without drop_old (customer, language) keep (the old
-- columns, their indexes and unique constraints, the moved indexes' copies
-- under their own names); the sequences of the moves finished with
-- drop_old went with their old columns
SELECT * FROM pg_temp.catalog_diff('catalog0') WHERE d !~ ' place [0-9]+';
SELECT count(*) FILTER (WHERE a.atttypid = 'public.xid'::regtype) AS xid_columns, count(*) AS id_columns
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relnamespace = 'dvd'::regnamespace AND c.relkind IN ('r', 'p') AND a.attname ~ '_id$' AND a.attname NOT IN ('rental_id', 'payment_id', 'store_id');

RESET ROLE;
DROP SCHEMA dvd CASCADE;
RESET client_min_messages;
REVOKE SET ON PARAMETER session_replication_role FROM regress_rental_owner;
DROP OWNED BY regress_rental_owner;
DROP OWNED BY regress_rental_clerk;
DROP ROLE regress_rental_owner, regress_rental_clerk;
