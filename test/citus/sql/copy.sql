-- COPY through the coordinator: binary out and back in, text with the
-- default xid_new() filling ids
SET citus.next_shard_id = 3000;
SET citus.shard_count = 8;
\copy events TO 'events.bin' WITH (FORMAT binary)
CREATE TABLE events_copy (LIKE events INCLUDING ALL);
SELECT create_distributed_table('events_copy', 'id', colocate_with => 'events');
\copy events_copy FROM 'events.bin' WITH (FORMAT binary)
SELECT (SELECT count(*) FROM events_copy) AS copied,
       (SELECT count(*) FROM (SELECT * FROM events EXCEPT ALL SELECT * FROM events_copy) a) AS missing,
       (SELECT count(*) FROM (SELECT * FROM events_copy EXCEPT ALL SELECT * FROM events) b) AS extra;
-- each row went to the shard of its id: the co-located join finds them all
SELECT count(*) FROM events e JOIN events_copy c ON c.id = e.id AND c.parent IS NOT DISTINCT FROM e.parent;
-- text, in and out
TRUNCATE events_copy;
\copy events TO 'events.txt'
\copy events_copy FROM 'events.txt'
SELECT count(*) FROM (SELECT * FROM events EXCEPT ALL SELECT * FROM events_copy) a;
\copy (SELECT id, parent, payload FROM events_copy WHERE payload IN ('e3', 'e4') ORDER BY id) TO STDOUT
\copy (SELECT id, parent FROM events_copy WHERE payload = 'e3') TO STDOUT WITH (FORMAT csv, HEADER)
-- binary COPY of an id that is not 8 bytes is refused
CREATE TEMP TABLE bad_bin AS SELECT 'abc'::bytea AS id;
\copy bad_bin TO 'bad.bin' WITH (FORMAT binary)
\copy events_copy (id) FROM 'bad.bin' WITH (FORMAT binary)
-- ids made by the default while copying
TRUNCATE events_copy;
\copy events_copy (kind, payload) FROM STDIN
1	a
2	b
3	c
\.
SELECT count(*), count(DISTINCT id), bool_and(public.xid_time(id) > now() - interval '1 minute') AS made_now
FROM events_copy;
