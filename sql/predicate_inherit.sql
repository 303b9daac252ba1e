-- Constraint exclusion by CHECK constraints written with xid's operators
-- (predicate.sql's other half).  Not on PostgreSQL 19 (Makefile): there a
-- CHECK constraint written with ^@, LIKE or a time comparison is not turned
-- into the comparisons that refute a clause, and no child is excluded.
SET timezone = 'UTC';
SET max_parallel_workers_per_gather = 0;
-- Constraint exclusion: children of an inheritance parent whose CHECK
-- constraints use xid's operators are excluded by a clause on the parent
-- that cannot hold in them.
CREATE TABLE pri (id public.xid NOT NULL, v int);
CREATE TABLE pri_a (CHECK (id ^@ '5A')) INHERITS (pri);
CREATE TABLE pri_b (CHECK (id ^@ '5B')) INHERITS (pri);
CREATE TABLE pri_old (CHECK (id < '2025-01-01+00'::timestamptz)) INHERITS (pri);
SET constraint_exclusion = partition;
EXPLAIN (COSTS OFF) SELECT count(*) FROM pri WHERE id ^@ '5A';
EXPLAIN (COSTS OFF) SELECT count(*) FROM pri WHERE id LIKE '5B%';
EXPLAIN (COSTS OFF) SELECT count(*) FROM pri WHERE id >= '2025-02-01+00'::timestamptz;
RESET constraint_exclusion;
DROP TABLE pri CASCADE;
