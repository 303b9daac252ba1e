// The framework modules against a live server (PGHOST, PGPORT, PGUSER,
// PGDATABASE): Drizzle, Kysely, TypeORM and Zod, each with the release
// package-lock.json pins.  An ES module (Kysely is one); test/cjs.test.cjs
// loads the same modules with require().
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { sql as dsql, eq, gte, like, between, inArray, count, asc } from 'drizzle-orm';
import { Kysely, PostgresDialect, sql as ksql } from 'kysely';
import 'reflect-metadata';
import { DataSource, EntitySchema, MoreThanOrEqual, In } from 'typeorm';
import { z } from 'zod';
import { Xid, XidError, xidNew, timeLowerBound, prefixBounds } from 'xid-pg';
import { registerTypes } from 'xid-pg/pg';
import * as xd from 'xid-pg/drizzle';
import * as xk from 'xid-pg/kysely';
import { xidTransformer, xidTextTransformer } from 'xid-pg/typeorm';
import { xid as zXid, xidText } from 'xid-pg/zod';

const require = createRequire(import.meta.url);
const { test, run } = require('./harness.js');

const pool = new pg.Pool({ max: 3 });
const oids = await registerTypes(pool);
const plain = new pg.Client();       // no parsers registered: xid arrives as text
await plain.connect();
const q = async (text, values) => (await plain.query(text, values)).rows;

await q('DROP TABLE IF EXISTS fw_orders');
await q(`CREATE TABLE fw_orders (id public.xid PRIMARY KEY DEFAULT xid_new(), item text NOT NULL)`);
await q(`INSERT INTO fw_orders
         SELECT xid_new(now() - interval '10 days' + g * interval '5 minutes' + random() * interval '1 minute'), 'o' || g
           FROM generate_series(1, 2880) g`);
await q('ANALYZE fw_orders');
const since = new Date(Date.now() - 3 * 86400000 - 12345);
const [{ want }] = await q('SELECT count(*)::int AS want FROM fw_orders WHERE xid_time(id) >= $1::timestamptz', [since]);
const [{ sample }] = await q('SELECT id::text AS sample FROM fw_orders ORDER BY id OFFSET 1000 LIMIT 1');
const prefix = sample.slice(0, 5);
const [{ wantPrefix }] = await q("SELECT count(*)::int AS \"wantPrefix\" FROM fw_orders WHERE id::text LIKE $1 || '%'", [prefix]);

// the plan of a query with its parameters, sequential scans off: is the
// comparison an index condition?
async function plan(text, params) {
  const c = await pool.connect();
  try {
    await c.query('SET enable_seqscan = off');
    await c.query('SET enable_bitmapscan = off');
    const rows = (await c.query({ text: `EXPLAIN (COSTS OFF) ${text}`, values: params })).rows;
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await c.query('RESET enable_seqscan; RESET enable_bitmapscan');
    c.release();
  }
}

// ---- Drizzle
const orders = pgTable('fw_orders', {
  id: xd.xid('id').primaryKey().default(dsql`xid_new()`),
  item: text('item').notNull(),
});
const db = drizzle(pool);
const dbPlain = drizzle(plain);

test('drizzle: the column type reads Xid (registered pool or plain text) and writes Xid or text', async () => {
  const [a] = await db.insert(orders).values({ item: 'pear' }).returning();
  assert.ok(a.id instanceof Xid);
  const made = xidNew();
  const [b] = await dbPlain.insert(orders).values({ id: made, item: 'plum' }).returning();
  assert.ok(b.id instanceof Xid && b.id.equals(made));
  const [c] = await dbPlain.select().from(orders).where(eq(orders.id, made.toString()));
  assert.equal(c.item, 'plum');
  const found = await db.select().from(orders).where(inArray(orders.id, [a.id, made])).orderBy(asc(orders.id));
  assert.deepEqual(found.map((r) => r.item).sort(), ['pear', 'plum']);
  await db.delete(orders).where(inArray(orders.id, [a.id, made]));
});

test('drizzle: a Date where an xid goes is a TypeError, never a silent result', () => {
  assert.throws(() => db.select().from(orders).where(gte(orders.id, since)).toSQL(), TypeError);
  assert.throws(() => db.select().from(orders).where(eq(orders.id, '5cnEk0efSdu')).toSQL(), { code: '22P02' });
});

const dcount = async (cond) => (await db.select({ n: count() }).from(orders).where(cond))[0].n;

test('drizzle: timeGte/timeLt are xid_time comparisons, and index conditions', async () => {
  const n = await dcount(xd.timeGte(orders.id, since));
  assert.equal(n, want);
  assert.equal(n + await dcount(xd.timeLt(orders.id, since)), 2880);
  assert.equal(await dcount(xd.timeGt(orders.id, since)) + await dcount(xd.timeLte(orders.id, since)), 2880);
  assert.equal(await dcount(gte(orders.id, timeLowerBound(since))), want);
  const query = db.select({ id: orders.id }).from(orders).where(xd.timeGte(orders.id, since)).toSQL();
  assert.equal(query.sql, 'select "id" from "fw_orders" where "fw_orders"."id" >= $1::timestamptz');
  // the server folds the bound of the time into a constant: the index range
  const p = await plan(query.sql, query.params);
  assert.equal(p, `Index Only Scan using fw_orders_pkey on fw_orders\n  Index Cond: (id >= '${timeLowerBound(since)}'::public.xid)`);
  console.log(p.split('\n').map((l) => '    ' + l).join('\n'));
});

test('drizzle: startsWith (^@) and like are prefix index ranges', async () => {
  assert.equal(await dcount(xd.startsWith(orders.id, prefix)), wantPrefix);
  assert.equal(await dcount(like(orders.id, prefix + '%')), wantPrefix);
  const b = prefixBounds(prefix);
  assert.equal(await dcount(between(orders.id, b.lower, b.upper)), wantPrefix);
  for (const cond of [xd.startsWith(orders.id, prefix), like(orders.id, prefix + '%')]) {
    const query = db.select({ id: orders.id }).from(orders).where(cond).toSQL();
    const p = await plan(query.sql, query.params);
    assert.match(p, /^Index Only Scan using fw_orders_pkey on fw_orders\n  Index Cond: \(\(id >= /, p);
    assert.ok(p.includes(`'${b.lower}'::public.xid`) && p.includes(`'${b.upper}'::public.xid`), p);
    console.log(p.split('\n').map((l) => '    ' + l).join('\n'));
  }
});

// ---- Kysely
const kdb = new Kysely({ dialect: new PostgresDialect({ pool }) });

test('kysely: Xid results, Xid or text parameters, time and prefix helpers', async () => {
  const first = await kdb.selectFrom('fw_orders').selectAll().orderBy('id').limit(2).execute();
  assert.ok(first.every((r) => r.id instanceof Xid));
  const same = await kdb.selectFrom('fw_orders').select('item').where('id', '=', first[0].id).executeTakeFirstOrThrow();
  assert.equal(same.item, first[0].item);
  const byText = await kdb.selectFrom('fw_orders').select('item').where('id', 'in', [first[1].id.toString()]).execute();
  assert.equal(byText[0].item, first[1].item);
  const t = await kdb.selectFrom('fw_orders').select((eb) => eb.fn.countAll().as('n')).where(xk.timeGte('id', since)).executeTakeFirstOrThrow();
  assert.equal(Number(t.n), want);
  const lt = await kdb.selectFrom('fw_orders').select((eb) => eb.fn.countAll().as('n')).where(xk.timeLt('fw_orders.id', since)).executeTakeFirstOrThrow();
  assert.equal(Number(t.n) + Number(lt.n), 2880);
  const p = await kdb.selectFrom('fw_orders').select((eb) => eb.fn.countAll().as('n')).where(xk.startsWith('id', prefix)).executeTakeFirstOrThrow();
  assert.equal(Number(p.n), wantPrefix);
  const lk = await kdb.selectFrom('fw_orders').select((eb) => eb.fn.countAll().as('n')).where('id', 'like', prefix + '%').executeTakeFirstOrThrow();
  assert.equal(Number(lk.n), wantPrefix);
  const c = kdb.selectFrom('fw_orders').select('id').where(xk.timeGte('id', since)).compile();
  assert.equal(c.sql, 'select "id" from "fw_orders" where "id" >= $1::timestamptz');
  assert.match(await plan(c.sql, c.parameters), new RegExp(`Index Cond: \\(id >= '${timeLowerBound(since)}'::public.xid\\)`));
  const cp = kdb.selectFrom('fw_orders').select('id').where(xk.startsWith('id', prefix)).compile();
  assert.match(await plan(cp.sql, cp.parameters), /Index Cond: \(\(id >= /);
  assert.throws(() => xk.timeGte('id', '2026-01-01'), TypeError);
});

// ---- TypeORM
const Order = new EntitySchema({
  name: 'Order',
  tableName: 'fw_orders',
  columns: {
    id: { type: 'text', primary: true, transformer: xidTransformer },
    item: { type: 'text' },
  },
});

test('typeorm: a public.xid column type is refused by TypeORM itself (why the column is declared text)', async () => {
  const bad = new EntitySchema({ name: 'Bad', tableName: 'fw_orders', columns: { id: { type: 'public.xid', primary: true }, item: { type: 'text' } } });
  const ds = new DataSource({ type: 'postgres', entities: [bad] });
  await assert.rejects(ds.initialize(), (e) => e.name === 'DataTypeNotSupportedError' &&
    /Data type "public.xid" in "Bad.id" is not supported by "postgres" database/.test(e.message));
});

test('typeorm: save, find by Xid, by text, by a time bound; values are Xid', async () => {
  const ds = new DataSource({ type: 'postgres', entities: [Order], synchronize: false });
  await ds.initialize();
  try {
    const repo = ds.getRepository(Order);
    const made = xidNew();
    await repo.save({ id: made, item: 'fig' });
    const got = await repo.findOneByOrFail({ id: made });
    assert.ok(got.id instanceof Xid && got.id.equals(made));
    const byText = await repo.findOneByOrFail({ id: made.toString() });
    assert.equal(byText.item, 'fig');
    const some = await repo.find({ where: { id: In([made]) } });
    assert.equal(some.length, 1);
    const n = await repo.count({ where: { id: MoreThanOrEqual(timeLowerBound(since)) } });
    assert.equal(n, want + 1);
    const qb = await repo.createQueryBuilder('o').where('o.id >= :t::timestamptz', { t: since.toISOString() }).getCount();
    assert.equal(qb, want + 1);
    await repo.delete({ id: made });
    await assert.rejects(repo.findOneBy({ id: 'not an xid' }), { code: '22P02' });
  } finally {
    await ds.destroy();
  }
});

test('typeorm: a join column (orderId beside many-to-one order): text with xidTextTransformer, or the relation', async () => {
  await q('DROP TABLE IF EXISTS fw_lines');
  await q(`CREATE TABLE fw_lines (id public.xid PRIMARY KEY DEFAULT xid_new(),
             order_id public.xid NOT NULL REFERENCES fw_orders, qty int NOT NULL)`);
  const Line = new EntitySchema({
    name: 'Line',
    tableName: 'fw_lines',
    columns: {
      id: { type: 'text', primary: true, transformer: xidTransformer },
      orderId: { name: 'order_id', type: 'text', transformer: xidTextTransformer },
      qty: { type: 'int' },
    },
    relations: { order: { type: 'many-to-one', target: 'Order', joinColumn: { name: 'order_id' } } },
  });
  const ds = new DataSource({ type: 'postgres', entities: [Order, Line], synchronize: false });
  await ds.initialize();
  try {
    const lines = ds.getRepository(Line);
    const parent = Xid.parse(sample);
    // the id's text in the join column, or the related entity by its key
    for (const line of [{ orderId: sample }, { orderId: parent.toString() }, { order: { id: parent } }]) {
      const id = xidNew();
      await lines.save({ id, qty: 2, ...line });
      const [row] = await q('SELECT order_id::text AS o FROM fw_lines WHERE id = $1', [id.toString()]);
      assert.equal(row.o, sample, JSON.stringify(line));
      const got = await lines.findOneOrFail({ where: { id }, relations: { order: true } });
      assert.equal(got.orderId, sample);
      assert.ok(got.order.id instanceof Xid && got.order.id.equals(parent));
    }
    assert.equal(await lines.countBy({ orderId: sample }), 3);
    // an Xid object in the join column: TypeORM takes it for the related
    // entity, finds no key in it, and writes NULL (README)
    await assert.rejects(lines.save({ id: xidNew(), orderId: parent, qty: 1 }), { code: '23502' });
  } finally {
    await ds.destroy();
    await q('DROP TABLE fw_lines');
  }
});

// ---- Zod
test('zod: xid parses text or Xid to Xid, xidText checks text; the errors say why; JSON schema has the pattern', () => {
  const Body = z.object({ id: zXid, ref: xidText.optional() });
  const out = Body.parse({ id: '5cnEkaefSdu', ref: 'jpXCZedGfVQ' });
  assert.ok(out.id instanceof Xid && out.id.toString() === '5cnEkaefSdu');
  assert.equal(out.ref, 'jpXCZedGfVQ');
  assert.ok(zXid.parse(Xid.MAX).equals(Xid.MAX));
  for (const bad of ['5cnEk0efSdu', '5cnEkaefSd', 'jpXCZedGfVR', 12, null, new Date()]) {
    const r = Body.safeParse({ id: bad });
    assert.equal(r.success, false, String(bad));
  }
  assert.match(xidText.safeParse('5cnEk0efSdu').error.issues[0].message, /^invalid input syntax for type xid/);
  assert.match(xidText.safeParse('jpXCZedGfVR').error.issues[0].message, /^value is out of range for type xid/);
  assert.deepEqual(z.toJSONSchema(xidText), {
    $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'string', pattern: '^[1-9A-HJ-NP-Za-km-z]{11}$',
  });
  assert.equal(JSON.stringify(Body.parse({ id: '5cnEkaefSdu' })), '{"id":"5cnEkaefSdu"}');
  // xid says why, as xidText does (not a union's bare "Invalid input")
  assert.match(zXid.safeParse('5cnEk0efSdu').error.issues[0].message, /^invalid input syntax for type xid/);
  assert.match(Body.safeParse({ id: 'jpXCZedGfVR' }).error.issues[0].message, /^value is out of range for type xid/);
  assert.match(zXid.safeParse(12).error.issues[0].message, /expected string/);
  // the input's JSON schema (what a request body is checked against)
  assert.deepEqual(z.toJSONSchema(z.object({ id: zXid }), { io: 'input' }).properties.id,
    { type: 'string', pattern: '^[1-9A-HJ-NP-Za-km-z]{11}$' });
});

test('oids: registerTypes(pool) found public.xid', () => {
  assert.notEqual(oids.oid, 28);
});

const failed = await run('frameworks: ');
await kdb.destroy().catch(() => {});
await plain.end();
await pool.end().catch(() => {});
process.exit(failed ? 1 : 0);
