-- ci/major/values.sql: every value of the fixture, in a fixed order, and
-- what its view, function and indexes answer (compared before and after)
\set ON_ERROR_STOP 1
\pset footer off
SELECT id, parent, span, note FROM events ORDER BY id;
SELECT tableoid::regclass, id, v FROM log_range ORDER BY id;
SELECT tableoid::regclass, id, v FROM log_hash ORDER BY id;
SELECT * FROM january_10 ORDER BY id;
SELECT by_prefix('5c'), by_prefix('5cp'), by_prefix('11111111111');
-- through each index (sequential scans off)
SET enable_seqscan = off;
SELECT count(*) FROM events WHERE parent = '5cnEkaefSdu' OR parent = (SELECT parent FROM events ORDER BY id OFFSET 100 LIMIT 1);
SET enable_indexscan = off;
SELECT count(*) FROM events WHERE id <@ public.xid_time_range('[2026-01-05+00, 2026-01-06+00)');
SELECT count(*) FROM events WHERE span @> '5cp11111111'::public.xid;
