'use strict';
// Cross-checks against a live server with xid installed (PGHOST, PGPORT,
// PGUSER, PGDATABASE), through node-postgres and postgres.js.
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const pg = require('pg');
const postgres = require('postgres');
const { test, run, scaled } = require('./harness.js');
const xid = require('../index.js');
const xidPg = require('../pg.js');
const xidPostgres = require('../postgres.js');

const { Xid, XidGenerator, prefixBounds, likeBounds, timeLowerBound, timeUpperBound, EPOCH_MS } = xid;
const U64_MAX = (1n << 64n) - 1n;

function hex(v) {
  return v.toString(16).padStart(16, '0');
}

function randomPayload() {
  return crypto.randomBytes(8).readBigUInt64BE(0);
}

function str(x) {
  return x === null ? null : x.toString();
}

// sleep until Date.now() has moved to a later millisecond
function nextMs() {
  const t = Date.now();
  while (Date.now() <= t) { /* spin: at most a millisecond */ }
}

// an ISO text of microseconds since the unix epoch, for the server
function isoMicros(us) {
  const ms = Math.floor(us / 1000);
  const frac = String(us - ms * 1000).padStart(3, '0');
  return new Date(ms).toISOString().replace('Z', frac + 'Z');
}

async function main() {
  let failed = 0;
  const client = new pg.Client();
  await client.connect();
  const oids = await xidPg.registerTypes(client);
  const q = async (text, values) => (await client.query(text, values)).rows;
  // what the server says of a text as TYPE: message, SQLSTATE and detail,
  // or nulls if it takes it (the cast's own error: pg_input_error_info()
  // is 16 and later only, and the package is tested against 15 too)
  const inputError = (s, type) => q(`SELECT $1::${type}`, [s]).then(
    () => ({ message: null, code: null, detail: null }),
    (e) => ({ message: e.message, code: e.code, detail: e.detail ?? null }));

  test('the type is found by OID, not by the name core uses (xid is oid 28)', async () => {
    const [row] = await q("SELECT to_regtype('public.xid')::oid::int AS ours, 'xid'::regtype::oid::int AS core");
    assert.equal(oids.oid, row.ours);
    assert.equal(row.core, 28);
    assert.notEqual(oids.oid, 28);
    const [{ t }] = await q("SELECT pg_typeof(xid_new())::text AS t");
    assert.equal(t, 'public.xid');
  });

  test('format: the same text as xid_out for 100,000 random payloads and the edge values', async () => {
    const edges = [0n, 1n, 57n, 58n, (1n << 32n) - 1n, 1n << 32n, (1n << 63n) - 1n, 1n << 63n, U64_MAX - 1n, U64_MAX];
    const payloads = edges.concat(Array.from({ length: scaled(100000) }, (_, i) => randomPayload() >> BigInt(i % 64)));
    for (let i = 0; i < payloads.length; i += 20000) {
      const chunk = payloads.slice(i, i + 20000);
      const rows = await q(
        `SELECT decode(h, 'hex')::public.xid::text AS t, decode(h, 'hex')::public.xid AS x
           FROM unnest($1::text[]) WITH ORDINALITY u(h, n) ORDER BY n`, [chunk.map(hex)]);
      assert.equal(rows.length, chunk.length);
      rows.forEach((r, j) => {
        assert.equal(new Xid(chunk[j]).toString(), r.t, `payload ${chunk[j]}`);
        assert.ok(r.x instanceof Xid);
        assert.equal(r.x.payload, chunk[j]);
      });
    }
  });

  test('parse: the server reads our text as the same payload, 20,000 ids', async () => {
    const xs = Array.from({ length: scaled(20000) }, () => new Xid(randomPayload()));
    const rows = await q(
      `SELECT encode(x::bytea, 'hex') AS h FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n`, [xs]);
    rows.forEach((r, j) => assert.equal(r.h, hex(xs[j].payload)));
  });

  test('invalid input: the same message, SQLSTATE and detail as the server', async () => {
    const bad = ['', '5cnEkaefSd', '5cnEkaefSdu1', '5cnEk0efSdu', '5cnEkaefSdO', 'I1111111111', 'l1111111111',
      ' 5cnEkaefSd', '5cnEkaefSd ', '5cnEkaefSdé', '2026-11-20', 'jpXCZedGfVR', 'jpXCZedGfWQ', 'k1111111111',
      'zzzzzzzzzzz', '5cnEkae-Sdu', '5cnEkaéfSd'];
    for (const s of bad) {
      const srv = await inputError(s, 'public.xid');
      let err = null;
      try {
        Xid.parse(s);
      } catch (e) {
        err = e;
      }
      assert.ok(err, `${JSON.stringify(s)} was accepted`);
      assert.equal(err.message, srv.message, s);
      assert.equal(err.code, srv.code, s);
      assert.equal(err.detail, srv.detail, s);
    }
    for (const s of ['11111111111', 'jpXCZedGfVQ', '5cnEkaefSdu']) {
      assert.equal((await inputError(s, 'public.xid')).code, null, s);
      assert.equal(Xid.isValid(s), true);
    }
  });

  test('prefix bounds: the same as xid_prefix_lower_bound/upper_bound for 3,000 prefixes', async () => {
    const prefixes = ['', 'j', 'jp', 'jq', 'k', 'z', 'zz', 'jpXCZedGfVQ', 'jpXCZedGfVR', 'jpXCZedGfV', 'jpXCZedGfW',
      '5c0', '0', 'l', ' ', '5cnrQT7y4za1', '111111111111', 'é', '%'];
    for (let i = 0; i < scaled(3000); i++) {
      const s = new Xid(randomPayload() >> BigInt(i % 8)).toString();
      prefixes.push(s.slice(0, i % 12));
    }
    const rows = await q(
      `SELECT xid_prefix_lower_bound(p) AS lo, xid_prefix_upper_bound(p) AS hi
         FROM unnest($1::text[]) WITH ORDINALITY u(p, n) ORDER BY n`, [prefixes]);
    rows.forEach((r, j) => {
      const b = prefixBounds(prefixes[j]);
      assert.deepEqual([str(b && b.lower), str(b && b.upper)], [str(r.lo), str(r.hi)], JSON.stringify(prefixes[j]));
    });
  });

  test('LIKE bounds: the same as xid_like_lower_bound/upper_bound', async () => {
    const patterns = ['', '%', '_', '5cnrQT%', '5cnrQT%a', '5cnrQT_____', '5cnrQT____', '5cnrQT______', '5cnrQT_%',
      '5c\\nr%', '5c\\%', '5c\\\\', '5cnrQT7y4za', '5cnrQT7y4za%', '5cnrQT7y4za1%', 'jpXCZedGfVR%', 'jq%',
      '5c0%', '___________', '__________', '%%%%', '5\\_%', 'é%', '5cnrQT%\\%', '\\5cnrQT%', 'jpXCZedGfV_'];
    for (let i = 0; i < 500; i++) {
      const s = new Xid(randomPayload()).toString();
      const n = i % 12;
      patterns.push(s.slice(0, n) + ['%', '_'.repeat(11 - n), '%' + s.slice(-2), '_%'][i % 4]);
    }
    const rows = await q(
      `SELECT xid_like_lower_bound(p) AS lo, xid_like_upper_bound(p) AS hi
         FROM unnest($1::text[]) WITH ORDINALITY u(p, n) ORDER BY n`, [patterns]);
    rows.forEach((r, j) => {
      const b = likeBounds(patterns[j]);
      assert.deepEqual([str(b && b.lower), str(b && b.upper)], [str(r.lo), str(r.hi)], JSON.stringify(patterns[j]));
    });
  });

  test('LIKE: a pattern ending in a lone backslash is an error on the server and in the client (22025)', async () => {
    for (const p of ['\u00e98Cdc9Wxaws%\\', '8Cdc9Wxaws%\\']) {
      for (const f of ['xid_like_lower_bound', 'xid_like_upper_bound']) {
        await assert.rejects(q(`SELECT ${f}($1)`, [p]),
          { code: '22025', message: 'LIKE pattern must not end with escape character' }, `${f}(${p})`);
      }
      assert.throws(() => likeBounds(p), { code: '22025', message: 'LIKE pattern must not end with escape character' });
    }
  });

  test('time bounds: the same as xid_time_lower_bound/upper_bound, microseconds and edges', async () => {
    const us = [EPOCH_MS * 1000, EPOCH_MS * 1000 - 1, EPOCH_MS * 1000 + 1, 0, (EPOCH_MS + 2 ** 42 - 1) * 1000,
      (EPOCH_MS + 2 ** 42 - 1) * 1000 + 1, (EPOCH_MS + 2 ** 42) * 1000, Date.now() * 1000, Date.now() * 1000 + 500];
    for (let i = 0; i < scaled(2000); i++) us.push(EPOCH_MS * 1000 + Math.floor(Math.random() * 2 ** 42 * 1000));
    const rows = await q(
      `SELECT xid_time_lower_bound(t::timestamptz, true) AS li, xid_time_lower_bound(t::timestamptz, false) AS lx,
              xid_time_upper_bound(t::timestamptz, true) AS ui, xid_time_upper_bound(t::timestamptz, false) AS ux
         FROM unnest($1::text[]) WITH ORDINALITY u(t, n) ORDER BY n`, [us.map(isoMicros)]);
    rows.forEach((r, j) => {
      const t = us[j] / 1000;
      assert.deepEqual(
        [str(timeLowerBound(t, true)), str(timeLowerBound(t, false)), str(timeUpperBound(t, true)), str(timeUpperBound(t, false))],
        [str(r.li), str(r.lx), str(r.ui), str(r.ux)], isoMicros(us[j]));
      if (us[j] % 1000 === 0) {
        // a Date (whole milliseconds) gives the same
        assert.equal(str(timeLowerBound(new Date(t), false)), str(r.lx));
        assert.equal(str(timeUpperBound(new Date(t), true)), str(r.ui));
      }
    });
  });

  test('time and node fields: the same as xid_time, xid_random and xid_node', async () => {
    const xs = Array.from({ length: 2000 }, () => new Xid(randomPayload()));
    const rows = await q(
      `SELECT (extract(epoch FROM xid_time(x)) * 1000)::bigint AS ms, xid_random(x) AS r,
              array(SELECT xid_node(x, b) FROM generate_series(0, 12) b) AS nodes
         FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n`, [xs]);
    rows.forEach((r, j) => {
      assert.equal(xs[j].time.getTime(), Number(r.ms));
      assert.equal(xs[j].random, r.r);
      assert.deepEqual(Array.from({ length: 13 }, (_, b) => xs[j].node(b)), r.nodes);
    });
    await assert.rejects(q("SELECT xid_node(xid_new(), 13)"), { message: 'node bits 13 is out of range', code: '22023' });
    assert.throws(() => xs[0].node(13), { message: 'node bits 13 is out of range', code: '22023' });
  });

  test('uuid: xidToUuid is id::uuid and xidFromUuid is uuid::xid, 20,000 ids and the edges; the same errors', async () => {
    const edges = [0n, 1n, (1n << 22n) - 1n, 1n << 22n, (1n << 63n) - 1n, 1n << 63n, U64_MAX - 1n, U64_MAX];
    const xs = edges.concat(Array.from({ length: scaled(20000) }, (_, i) => randomPayload() >> BigInt(i % 64)))
      .map((v) => new Xid(v));
    const rows = await q(
      `SELECT x::uuid::text AS u, x::uuid::public.xid AS back
         FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n`, [xs]);
    rows.forEach((r, j) => {
      assert.equal(xid.xidToUuid(xs[j]), r.u, xs[j].toString());
      assert.equal(xid.xidFromUuid(r.u).toString(), xs[j].toString());
      assert.equal(r.back.toString(), xs[j].toString());
    });
    // uuids that are not an xid: a v4, another v7, the nil uuid, a bad text
    const bad = [crypto.randomUUID(), '01890a5d-ac96-774b-bcce-b302099a8057', '00000000-0000-0000-0000-000000000000',
      xid.xidToUuid(xs[9]).slice(0, -1) + '1'];
    for (const u of bad) {
      const srv = await inputError(u, 'uuid');
      assert.equal(srv.code, null);
      const e = await q('SELECT $1::uuid::public.xid', [u]).then(() => null, (err) => err);
      assert.ok(e, `${u} was taken by the server`);
      assert.throws(() => xid.xidFromUuid(u), (err) => err.message === e.message && err.code === e.code, u);
    }
  });

  test('ulid: xidToUlid is xid_to_ulid, xidFromUlid is xid_from_ulid, xidFromUlidFlake is xid_from_ulid_flake; the same errors', async () => {
    const edges = [0n, 1n, (1n << 22n) - 1n, 1n << 22n, (1n << 63n) - 1n, 1n << 63n, U64_MAX - 1n, U64_MAX];
    const xs = edges.concat(Array.from({ length: scaled(20000) }, (_, i) => randomPayload() >> BigInt(i % 64)))
      .map((v) => new Xid(v));
    let rows = await q(
      `SELECT xid_to_ulid(x) AS u, xid_from_ulid(xid_to_ulid(x))::text AS back, xid_from_ulid(lower(xid_to_ulid(x)))::text AS lower
         FROM unnest($1::public.xid[]) WITH ORDINALITY u(x, n) ORDER BY n`, [xs]);
    assert.equal(rows.length, xs.length);
    rows.forEach((r, j) => {
      assert.equal(xid.xidToUlid(xs[j]), r.u, xs[j].toString());
      assert.equal(xid.xidFromUlid(r.u).toString(), xs[j].toString());
      assert.deepEqual([r.back, r.lower], [xs[j].toString(), xs[j].toString()]);
    });
    // ULIDs of another maker, any randomness: the 26 symbols, and the same
    // bytes as a uuid (pgx_ulid's cast) give the same id
    const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const ulids = Array.from({ length: scaled(5000) }, () => {
      const ms = BigInt(EPOCH_MS + Math.floor(Math.random() * 2 ** 42));
      return (ms << 80n) | (randomPayload() << 16n) | BigInt(crypto.randomInt(65536));
    });
    const texts = ulids.map((v) => Array.from({ length: 26 }, (_, i) => CROCKFORD[Number((v >> BigInt(125 - 5 * i)) & 31n)]).join(''));
    const uuids = ulids.map((v) => v.toString(16).padStart(32, '0').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'));
    rows = await q(
      `SELECT xid_from_ulid(t)::text AS t, xid_from_ulid(u)::text AS u
         FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY a(t, u, n) ORDER BY n`, [texts, uuids]);
    rows.forEach((r, j) => {
      assert.equal(xid.xidFromUlid(texts[j]).toString(), r.t, texts[j]);
      assert.equal(r.u, r.t, uuids[j]);
    });
    // flakes: every time an xid holds, and the edges of the 20 bits
    const top = (BigInt(EPOCH_MS + 2 ** 42 - 1 - 1704067200000) << 20n) | 0xfffffn;
    const flakes = [0n, 1n, 0xfffffn, top].concat(Array.from({ length: scaled(10000) }, () => randomPayload() % (top + 1n)));
    rows = await q(
      `SELECT xid_from_ulid_flake(f)::text AS x FROM unnest($1::text[]::bigint[]) WITH ORDINALITY u(f, n) ORDER BY n`,
      [flakes.map(String)]);
    rows.forEach((r, j) => assert.equal(xid.xidFromUlidFlake(flakes[j]).toString(), r.x, String(flakes[j])));
    // what the server refuses: bad text, a first symbol above 7, a time an xid cannot hold, a negative flake
    const bad = [
      ['text', ''], ['text', '8ZZZZZZZZZZZZZZZZZZZZZZZZZ'], ['text', '01ARZ3NDEKTSV4RRFFQ69G5FA'],
      ['text', '01ARZ3NDEKTSV4RRFFQ69G5FAVX'], ['text', '01ARZ3NDEKTSV4RRFFQ69G5FAU'], ['text', '01arz3ndektsv4rrffq69g5fai'],
      ['text', '8é' + '0'.repeat(23)], ['text', '8é' + '0'.repeat(24)], ['text', '00000000000000000000000000'],
      ['text', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'],
      ['flake', -1n], ['flake', -(1n << 63n)], ['flake', top + 1n], ['flake', (1n << 63n) - 1n],
    ];
    for (const [kind, v] of bad) {
      const sql = kind === 'text' ? 'SELECT xid_from_ulid($1::text)' : 'SELECT xid_from_ulid_flake($1::text::bigint)';
      const e = await q(sql, [String(v)]).then(() => null, (err) => err);
      assert.ok(e, `${v} was taken by the server`);
      const convert = kind === 'text' ? xid.xidFromUlid : xid.xidFromUlidFlake;
      assert.throws(() => convert(v), (err) => err.message === e.message && err.code === e.code && err.detail === e.detail, String(v));
    }
  });

  test('generator: client ids and xid_new() ids interleaved in one table sort in time order', async () => {
    await q('CREATE TEMP TABLE gen (id public.xid PRIMARY KEY, seq int NOT NULL, src text NOT NULL)');
    const g = new XidGenerator();
    for (let i = 0; i < 400; i++) {
      nextMs();
      if (i % 2 === 0) {
        const before = Date.now();
        const id = g.next();
        assert.ok(id.time.getTime() >= before && id.time.getTime() <= Date.now());
        await q("INSERT INTO gen VALUES ($1, $2, 'client')", [id, i]);
      } else {
        await q("INSERT INTO gen VALUES (xid_new(), $1, 'server')", [i]);
      }
    }
    const rows = await q('SELECT seq FROM gen ORDER BY id');
    assert.deepEqual(rows.map((r) => r.seq), Array.from({ length: 400 }, (_, i) => i));
    // and a burst: each side strictly increasing
    const burst = Array.from({ length: 5000 }, () => g.next());
    for (let i = 1; i < burst.length; i++) assert.ok(burst[i].compare(burst[i - 1]) > 0);
  });

  test('generator with node bits: xid_node reads the node number back', async () => {
    const g = new XidGenerator({ nodeBits: 4, nodeId: 11 });
    const xs = Array.from({ length: 1000 }, () => g.next());
    const rows = await q('SELECT DISTINCT xid_node(x, 4) AS n FROM unnest($1::public.xid[]) x', [xs]);
    assert.deepEqual(rows, [{ n: 11 }]);
  });

  failed += await run('server: ');

  // ---- node-postgres
  await q('DROP TABLE IF EXISTS orders, copied');
  await q(`CREATE TABLE orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL)`);
  // 3,000 orders over ten days, ids made for their times
  await q(`INSERT INTO orders
           SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes' + random() * interval '1 minute'), 'o' || g
             FROM generate_series(1, 2880) g`);
  await q('ANALYZE orders');
  const since = new Date(Date.now() - 3 * 86400000 - 12345);
  const [{ want }] = await q('SELECT count(*)::int AS want FROM orders WHERE xid_time(id) >= $1::timestamptz', [since]);

  test('pg: results are Xid, parameters take an Xid, an array of Xid, or text', async () => {
    const [row] = await q('SELECT id FROM orders ORDER BY id LIMIT 1');
    assert.ok(row.id instanceof Xid);
    const [same] = await q('SELECT id, item FROM orders WHERE id = $1', [row.id]);
    assert.ok(same.id.equals(row.id));
    const [byText] = await q('SELECT id FROM orders WHERE id = $1', [row.id.toString()]);
    assert.ok(byText.id.equals(row.id));
    const some = (await q('SELECT id FROM orders ORDER BY id LIMIT 5')).map((r) => r.id);
    const found = await q('SELECT id FROM orders WHERE id = ANY($1) ORDER BY id', [some]);
    assert.deepEqual(found.map((r) => str(r.id)), some.map(str));
  });

  test('pg: arrays of xid read as Xid[] (with NULL), in text format', async () => {
    const [r] = await q("SELECT array_agg(id ORDER BY id) AS ids, ARRAY['11111111111', NULL, 'jpXCZedGfVQ']::public.xid[] AS e, '{}'::public.xid[] AS z FROM orders");
    assert.equal(r.ids.length, 2880);
    assert.ok(r.ids.every((x) => x instanceof Xid));
    assert.deepEqual(r.e.map(str), ['11111111111', null, 'jpXCZedGfVQ']);
    assert.deepEqual(r.z, []);
  });

  test('pg: a Date in id >= $1 is an error, never a silent result (the server types $1 as xid)', async () => {
    await assert.rejects(q('SELECT count(*) FROM orders WHERE id >= $1', [since]),
      (e) => e.code === '22P02' && /invalid input syntax for type xid/.test(e.message));
  });

  test('pg: the time query id >= $1::timestamptz with a Date means xid_time(id) >= t', async () => {
    const [{ n }] = await q('SELECT count(*)::int AS n FROM orders WHERE id >= $1::timestamptz', [since]);
    assert.equal(n, want);
    assert.ok(n > 0 && n < 2880, `${n}`);
    const [{ m }] = await q('SELECT count(*)::int AS m FROM orders WHERE id < $1::timestamptz', [since]);
    assert.equal(n + m, 2880);
  });

  test('pg: the time query with bounds computed in the client (id >= $1 with timeLowerBound)', async () => {
    const [{ n }] = await q('SELECT count(*)::int AS n FROM orders WHERE id >= $1', [timeLowerBound(since)]);
    assert.equal(n, want);
    const until = new Date(since.getTime() + 86400000);
    const [{ w }] = await q('SELECT count(*)::int AS w FROM orders WHERE id >= $1 AND id < $2', [timeLowerBound(since), timeLowerBound(until)]);
    const [{ s }] = await q('SELECT count(*)::int AS s FROM orders WHERE xid_time(id) >= $1::timestamptz AND xid_time(id) < $2::timestamptz', [since, until]);
    assert.equal(w, s);
  });

  test('pg: the time query keeps the primary key index', async () => {
    await q('SET enable_seqscan = off');
    await q("PREPARE tq(timestamptz) AS SELECT count(*) FROM orders WHERE id >= $1");
    await q('SET plan_cache_mode = force_generic_plan');
    const plan = (await q('EXPLAIN (COSTS OFF) EXECUTE tq(now())')).map((r) => r['QUERY PLAN']).join('\n');
    await q('RESET plan_cache_mode; RESET enable_seqscan; DEALLOCATE tq');
    assert.match(plan, /Index Only Scan using orders_pkey/);
    assert.match(plan, /xid_time_lower_bound\(\$1, true\)/);
  });

  test('pg: binary: true reads each xid exactly or fails loudly, never a wrong id', async () => {
    // node-postgres decodes binary fields as UTF-8 before any parser sees
    // them: an id whose 8 bytes are no valid UTF-8 cannot be read intact
    const bin = new pg.Client({ binary: true });
    await bin.connect();
    try {
      await xidPg.registerTypes(bin);
      // binary results come with the extended protocol, that is with parameters
      const [e] = (await bin.query("SELECT '11111111111'::public.xid AS z, '\\x0102030405060708'::bytea::public.xid AS x, '{}'::public.xid[] AS a, $1::int AS one", [1])).rows;
      assert.equal(e.z.payload, 0n);
      assert.equal(e.x.payload, 0x0102030405060708n); // bytes that are valid UTF-8
      assert.deepEqual(e.a, []);
      const ids = (await q('SELECT id FROM orders ORDER BY id LIMIT 300')).map((r) => r.id);
      let exact = 0;
      let refused = 0;
      for (const id of ids) {
        try {
          const [r] = (await bin.query('SELECT $1::public.xid AS id, ARRAY[$1::public.xid] AS a', [id])).rows;
          assert.ok(r.id.equals(id), `${r.id} read for ${id}`);
          assert.ok(r.a[0].equals(id));
          exact++;
        } catch (err) {
          assert.match(err.message, /decoded this binary public.xid as UTF-8 text and lost bytes/);
          refused++;
        }
      }
      assert.equal(exact + refused, ids.length);
      assert.ok(refused > 0);
    } finally {
      await bin.end();
    }
  });

  test('pg: binary: true finds the OIDs exactly, whatever their bytes', async () => {
    // a type named xid whose OID and array OID each have a byte of 0x80 or
    // above: an int4 read in binary through node-postgres's UTF-8 decoding
    // would come back changed (0x44C5 as 0x44EF)
    await q(`DO $$
      DECLARE t oid; a oid;
      BEGIN
        FOR i IN 1..500 LOOP
          DROP SCHEMA IF EXISTS node_binoid CASCADE;
          CREATE SCHEMA node_binoid;
          CREATE TYPE node_binoid.xid AS (v int);
          SELECT oid, typarray INTO t, a FROM pg_type WHERE oid = 'node_binoid.xid'::regtype;
          EXIT WHEN (t::bigint & 128) <> 0 AND (a::bigint & 128) <> 0;
        END LOOP;
      END $$`);
    const [want] = await q("SELECT oid::text AS oid, typarray::text AS arr FROM pg_type WHERE oid = 'node_binoid.xid'::regtype");
    assert.ok((Number(want.oid) & 128) !== 0 && (Number(want.arr) & 128) !== 0, `${want.oid} ${want.arr}`);
    const bin = new pg.Client({ binary: true });
    await bin.connect();
    try {
      const got = await xidPg.lookupTypes(bin, 'node_binoid');
      assert.deepEqual(got, { oid: Number(want.oid), arrayOid: Number(want.arr) });
    } finally {
      await bin.end();
      await q('DROP SCHEMA node_binoid CASCADE');
    }
  });

  test('pg: without registerTypes, binary: true garbles ids (the trap registerTypes removes)', async () => {
    const bin = new pg.Client({ binary: true });
    await bin.connect();
    try {
      const [r] = (await bin.query("SELECT 'jpXCZedGfVQ'::public.xid AS id, $1::int AS one", [1])).rows;
      assert.equal(typeof r.id, 'string');
      assert.equal(r.id, '\ufffd'.repeat(8));
    } finally {
      await bin.end();
    }
  });

  test('pg: a pool: registerTypes(pool) before its first query covers every connection', async () => {
    const pool = new pg.Pool({ max: 3 });
    await xidPg.registerTypes(pool);
    try {
      const res = await Promise.all(Array.from({ length: 6 }, () => pool.query('SELECT xid_new() AS id')));
      res.forEach((r) => assert.ok(r.rows[0].id instanceof Xid));
    } finally {
      await pool.end();
    }
  });

  test('pg: another schema: CREATE EXTENSION xid SCHEMA ids is found as ids.xid', async () => {
    // a second database, so the extension can live in another schema
    const admin = new pg.Client({ database: 'postgres' });
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS xid_clients_node_schema');
    await admin.query('CREATE DATABASE xid_clients_node_schema');
    const c = new pg.Client({ database: 'xid_clients_node_schema' });
    try {
      await c.connect();
      await c.query('CREATE SCHEMA ids; CREATE EXTENSION xid SCHEMA ids');
      await assert.rejects(xidPg.registerTypes(c), /public\.xid does not exist/);
      await xidPg.registerTypes(c, { schema: 'ids' });
      const [r] = (await c.query('SELECT ids.xid_new() AS id')).rows;
      assert.ok(r.id instanceof Xid);
    } finally {
      await c.end();
      await admin.query('DROP DATABASE xid_clients_node_schema WITH (FORCE)');
      await admin.end();
    }
  });

  failed += await run('pg: ');

  // ---- postgres.js
  const sql = await xidPostgres.connect({ max: 2, onnotice: () => {} });

  test('postgres.js: connect() gives the type through the public types option only', async () => {
    assert.equal(sql.options.types.xid.to, oids.oid);
    assert.deepEqual(sql.options.types.xid.from, [oids.oid]);
    assert.equal(typeof sql.types.xid, 'function');
    const [r] = await sql`SELECT ${sql.types.xid('5cnEkaefSdu')}::text AS t`;
    assert.equal(r.t, '5cnEkaefSdu');
    // and with a url and another schema
    const admin = postgres({ database: 'postgres', max: 1, onnotice: () => {} });
    await admin`DROP DATABASE IF EXISTS xid_clients_node_pjs`;
    await admin`CREATE DATABASE xid_clients_node_pjs`;
    try {
      const url = `postgres://${process.env.PGUSER}@${process.env.PGHOST}:${process.env.PGPORT}/xid_clients_node_pjs`;
      const setup = postgres(url, { max: 1, onnotice: () => {} });
      await setup`CREATE SCHEMA ids`;
      await setup`CREATE EXTENSION xid SCHEMA ids`;
      await setup.end();
      await assert.rejects(xidPostgres.connect(url), /public\.xid does not exist/);
      const other = await xidPostgres.connect(url, { max: 1, xidSchema: 'ids' });
      try {
        const [x] = await other`SELECT ids.xid_new() AS id, ARRAY[ids.xid_new()] AS a`;
        assert.ok(x.id instanceof Xid && x.a[0] instanceof Xid);
      } finally {
        await other.end();
      }
    } finally {
      await admin`DROP DATABASE xid_clients_node_pjs WITH (FORCE)`;
      await admin.end();
    }
  });

  test('postgres.js: a string parameter is checked before it is sent, with the server\'s error', async () => {
    assert.throws(() => xidPostgres.serialize('5cnEk0efSdu'), { code: '22P02', message: 'invalid input syntax for type xid: "5cnEk0efSdu"' });
    assert.throws(() => xidPostgres.serialize('jpXCZedGfVR'), { code: '22003' });
    assert.equal(xidPostgres.serialize('5cnEkaefSdu'), '5cnEkaefSdu');
    await assert.rejects(sql`SELECT count(*) FROM orders WHERE id = ${'5cnEk0efSdu'}`,
      (e) => e instanceof xid.XidError && e.code === '22P02');
  });

  test('postgres.js: results are Xid, arrays Xid[], parameters Xid or text', async () => {
    const rows = await sql`SELECT id FROM orders ORDER BY id LIMIT 5`;
    assert.ok(rows.every((r) => r.id instanceof Xid));
    const [one] = await sql`SELECT id FROM orders WHERE id = ${rows[0].id}`;
    assert.ok(one.id.equals(rows[0].id));
    const [two] = await sql`SELECT id FROM orders WHERE id = ${rows[1].id.toString()}`;
    assert.ok(two.id.equals(rows[1].id));
    const [a] = await sql`SELECT array_agg(id ORDER BY id) AS ids, ARRAY['11111111111', NULL]::public.xid[] AS e FROM orders`;
    assert.equal(a.ids.length, 2880);
    assert.ok(a.ids.every((x) => x instanceof Xid));
    assert.deepEqual(a.e.map(str), ['11111111111', null]);
    const found = await sql`SELECT id FROM orders WHERE id = ANY(${rows.map((r) => r.id)}) ORDER BY id`;
    assert.deepEqual(found.map((r) => str(r.id)), rows.map((r) => str(r.id)));
  });

  test('postgres.js: a Date in id >= ${t} is sent as timestamptz and means xid_time(id) >= t', async () => {
    const [{ n }] = await sql`SELECT count(*)::int AS n FROM orders WHERE id >= ${since}`;
    assert.equal(n, want);
    const [{ m }] = await sql`SELECT count(*)::int AS m FROM orders WHERE id < ${since}`;
    assert.equal(n + m, 2880);
  });

  test('postgres.js: a value that is no xid is refused before it is sent', async () => {
    await assert.rejects(sql`SELECT count(*) FROM orders WHERE id = ${12345}`);
    assert.throws(() => xidPostgres.serialize(new Date()), TypeError);
  });

  test('postgres.js: the official types option with a known OID', async () => {
    const sql2 = postgres({ max: 1, types: { xid: xidPostgres.xidType(oids.oid) } });
    try {
      const [r] = await sql2`SELECT xid_new() AS id, ARRAY[xid_new()] AS a`;
      assert.ok(r.id instanceof Xid);
      assert.ok(r.a[0] instanceof Xid);
    } finally {
      await sql2.end();
    }
  });

  test('postgres.js: COPY FROM STDIN of client-made ids', async () => {
    await sql`CREATE TABLE copied (id public.xid PRIMARY KEY, n int)`;
    const g = new XidGenerator();
    const ids = Array.from({ length: 5000 }, () => g.next());
    const stream = await sql`COPY copied (id, n) FROM STDIN`.writable();
    await new Promise((resolve, reject) => {
      stream.on('error', reject);
      stream.on('finish', resolve);
      stream.end(ids.map((x, i) => `${x}\t${i}\n`).join(''));
    });
    const rows = await sql`SELECT id, n FROM copied ORDER BY id`;
    assert.deepEqual(rows.map((r) => str(r.id)), ids.map(str));
    assert.deepEqual(rows.map((r) => r.n), ids.map((_, i) => i));
  });

  failed += await run('postgres.js: ');
  await sql.end();

  await client.end();
  return failed;
}

main().then((failed) => process.exit(failed ? 1 : 0), (e) => {
  console.log(`FAIL server tests: ${e.stack}`);
  process.exit(1);
});
