-- Constraint exclusion by CHECK constraints written with xid's operators
-- (predicate.sql's other half).  PostgreSQL 19 simplifies a child's CHECK
-- constraints with the child's own Vars, 15 to 18 with those of the
-- query's first table (here the parent): both must exclude.
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
