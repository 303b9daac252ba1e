--
-- Node numbers: xid_node() and the settings xid.node_bits and xid.node_id
-- (their effect on xid_new() needs a server configured for it: see
-- test/t/120_sharding.pl)
--
SELECT public.xid_node('5cnEkaefSdu', 0) AS loads_the_library;
-- off by default, and not settable per session: a session must not claim
-- another server's node number
SHOW xid.node_bits;
SHOW xid.node_id;
\set VERBOSITY sqlstate
SET xid.node_bits = 4;
SET xid.node_id = 3;
\set VERBOSITY default
SELECT name, context, min_val, max_val FROM pg_settings WHERE name LIKE 'xid.node%' ORDER BY 1;

-- the node field: the top bits of the 22 low bits
-- (node 5 of 3 bits, then node 2730 of 12 bits, in ids of one millisecond)
SELECT public.xid_node(id, 3) AS node_3_bits, public.xid_node(id, 12) AS node_12_bits,
       public.xid_node(id, 0) AS no_bits, public.xid_random(id) AS low_bits
FROM (VALUES (('5cnEkaefSdu'::public.xid::bigint & ~4194303 | (5 << 19) | 12345)::public.xid),
             (('5cnEkaefSdu'::public.xid::bigint & ~4194303 | (2730 << 10) | 1023)::public.xid),
             ('5cnEkaefSdu'::public.xid)) AS v(id);
-- every layout reads the bits it should
SELECT bits, count(*) FILTER (WHERE public.xid_node(id, bits) <> (public.xid_random(id) >> (22 - bits))) AS wrong
FROM generate_series(0, 12) AS bits,
     (SELECT public.xid_new('2026-01-01+00'::timestamptz + g * interval '1 ms') AS id
      FROM generate_series(1, 1000) AS g) s
GROUP BY bits ORDER BY bits;
SELECT public.xid_node('jpXCZedGfVQ', 12) AS all_ones, public.xid_node('11111111111', 12) AS zero;
SELECT public.xid_node(NULL, 3) IS NULL AND public.xid_node('5cnEkaefSdu', NULL) IS NULL AS strict;
-- a layout an xid cannot have
SELECT public.xid_node('5cnEkaefSdu', 13);
SELECT public.xid_node('5cnEkaefSdu', -1);
